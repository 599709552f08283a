// When no bundle of `.isdlc/bin/` can answer (all missing, or none loads), the executable answers by
// itself rather than crash: a host takes a crashed hook for a non-blocking error and goes ahead silently
// (Claude Code does). Without config or state only the plain signs of an advance are known; those are
// denied, anything else goes ahead with the problem told to the model and the person. The host that sent
// the call writes the answer in its own wire format (src/hosts/executable.ts).
import { EXECUTABLE_HOSTS } from '../hosts/executable.js';
import { writeAllSync, type HookInput } from './stdio.js';

export function answerWithoutBundles(input: HookInput, missing: readonly string[], hostId: string): void {
  let payload: Record<string, unknown> = {};
  try {
    if ('bytes' in input) payload = JSON.parse(input.bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    // an unreadable payload is still answered: the problem is told, nothing is denied
  }
  const what = `none of isdlc's hook bundles in .isdlc/bin/ can run (${missing.join('; ')}), so none of its checks ran`;
  const repair = 'a person runs `isdlc init` in the project to reinstall them; `isdlc doctor` checks the install';
  const answer = (EXECUTABLE_HOSTS[hostId] ?? Object.values(EXECUTABLE_HOSTS)[0]!).lastResort;
  const out = answer(payload, {
    person: `isdlc is broken in this project: ${what}. The agent's ordinary work goes on unchecked, and the workflow cannot move on until you repair it: ${repair}.`,
    note: `isdlc install-integrity: isdlc is not whole in this project: ${what}. This call goes ahead unchecked; any step that moves the workflow on is refused until a person repairs it: ${repair}. Tell the user.`,
    deny: (advance) =>
      `isdlc install-integrity: Stop and ask the user to repair isdlc before the workflow moves on: ${repair}. isdlc is not whole in this project: ${what}. ` +
      `This call (${advance}) would move the workflow on, and nothing can vouch for the evidence that step rests on. This step will be denied again until the repair is done.`,
  });
  writeAllSync(1, out);
  writeAllSync(2, `isdlc hook: ${what}\n`);
}

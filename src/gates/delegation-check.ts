// The agent-delegation requirement: the phase's own agent ran in this phase, ended, and did the phase's
// kind of work there (src/state/agent-runs.ts judges each run). The detail says what was seen, so the model knows
// whether to wait, or to delegate the work again.
import { clockOf, judgeRun, phaseWorkWords } from '../state/agent-runs.js';
import type { SkillUsageEntry } from '../state/schema.js';
import type { GateCheck } from './gate-check.js';

/** The check for `agent`'s runs in `phase`, from the log as it is `now`. */
export function delegationCheckOf(log: readonly SkillUsageEntry[] | undefined, agent: string, phase: string, now: Date): GateCheck {
  const runs = (log ?? [])
    .filter((entry) => entry.agent === agent && entry.agent_phase === phase)
    .map((entry) => ({ entry, judged: judgeRun(entry, now, phase) }));
  const met = (detail: string): GateCheck => ({ requirement: 'agent_delegation', met: true, detail });
  const unmet = (detail: string, action: string): GateCheck => ({ requirement: 'agent_delegation', met: false, detail, action });
  if (runs.some((run) => run.judged.kind === 'worked')) return met(`${agent} ran in this phase and did its work (${phaseWorkWords(phase)})`);
  if (runs.some((run) => run.judged.kind === 'trusted'))
    return met(`${agent} ran in this phase (logged before isdlc followed runs, so its tool calls were not seen)`);
  const running = runs.map((run) => run.judged).find((judged) => judged.kind === 'running');
  if (running?.kind === 'running') {
    return unmet(
      `${agent} is still running since ${clockOf(running.since)} (${running.minutes} min)`,
      `wait for ${agent} to finish, then check the gate again`,
    );
  }
  const again = `delegate the phase's work to ${agent} again: only a run that did the work counts (${phaseWorkWords(phase)})`;
  if (runs.some((run) => run.judged.kind === 'idle')) return unmet(`${agent} ran but did none of this phase's work (${phaseWorkWords(phase)})`, again);
  const lost = runs.map((run) => run.judged).find((judged) => judged.kind === 'lost');
  if (lost?.kind === 'lost') return unmet(`${agent} was launched at ${clockOf(lost.since)} and its end was never seen`, again);
  return unmet(`no delegation to ${agent} recorded in this phase`, `delegate the phase's work to ${agent}`);
}

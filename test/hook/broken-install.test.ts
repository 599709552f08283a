// isdlc itself gone or broken in an installed project: the registered hooks never allow silently.
// Ordinary work goes through with a note for the model and a message for the person, both naming the
// repair; whatever would move the workflow on is denied with the reason and the repair.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCall, bashPassed, skillCall, stop, writeCall } from '../helpers/payloads.js';
import { cli, decisionOf, initedProject, lastActivity, tempDir, writeFile, type Decision } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { copyPath } from '../../src/integrity/journal.js';

function project(): string {
  const dir = initedProject('isdlc-broken-');
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
  return dir;
}

/**
 * The journal of isdlc's writes keeps a copy of every installed file and puts a missing one back at the
 * next call (docs/tamper-evidence.md); these cases are about a file it has no copy of either.
 */
function removeWithItsCopy(dir: string, ...rels: string[]): void {
  for (const rel of rels) {
    rmSync(join(dir, rel), { force: true });
    rmSync(copyPath(dir, rel), { force: true });
  }
}

function call(dir: string, payload: Record<string, unknown>): Decision {
  const run = runRegisteredHook(dir, payload);
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
}

const mcpCall = (dir: string, tool: string) => ({ ...bashCall(dir, ''), tool_name: `mcp__isdlc__${tool}`, tool_input: {} });

/** The advances a broken install must refuse, as the model would attempt them. */
const advances: [string, (dir: string) => Record<string, unknown>][] = [
  ["isdlc's phase_complete tool", (dir) => mcpCall(dir, 'phase_complete')],
  ['the isdlc skill asked to advance', (dir) => skillCall(dir, 'isdlc', 'advance')],
  ['`isdlc phase complete` in a shell', (dir) => bashCall(dir, 'node .isdlc/bin/isdlc.cjs phase complete')],
];

function expectOrdinaryWorkGoesOn(dir: string, problem: string, repair: string): void {
  const write = call(dir, writeCall(dir, join(dir, 'src/app.ts'), 'export {};\n'));
  expect(write.kind).toBe('allow');
  expect(write.context).toContain('isdlc install-integrity: isdlc is not whole in this project');
  expect(write.context).toContain(problem);
  expect(write.context).toContain(repair);
  expect(write.systemMessage).toContain(problem);
  expect(write.systemMessage).toContain(repair);
  const shell = call(dir, bashCall(dir, 'ls src'));
  expect(shell.kind).toBe('allow');
  expect(shell.systemMessage).toContain(problem);
}

function expectAdvancesDenied(dir: string, problem: string, repair: string): void {
  for (const [name, payload] of advances) {
    const decision = call(dir, payload(dir));
    expect(decision.kind, name).toBe('deny');
    expect(decision.reason, name).toMatch(/^isdlc install-integrity: Stop and ask the user to repair isdlc/);
    expect(decision.reason, name).toContain(problem);
    expect(decision.reason, name).toContain(repair);
  }
}

describe('a broken install, through the registered hooks', () => {
  it('a whole install: no note at all', () => {
    const dir = project();
    const write = call(dir, writeCall(dir, join(dir, 'src/app.ts'), 'export {};\n'));
    expect(write.context).toBeUndefined();
    expect(write.systemMessage).toBeUndefined();
  });

  it('.isdlc/monorepo.json does not parse', () => {
    const dir = project();
    writeFile(join(dir, '.isdlc/monorepo.json'), '{ "projects": ');
    expectOrdinaryWorkGoesOn(dir, '.isdlc/monorepo.json cannot be used', '`isdlc doctor`');
    expectAdvancesDenied(dir, '.isdlc/monorepo.json cannot be used', 'a person repairs .isdlc/monorepo.json');
    expect(lastActivity(dir)['install_problems']).toEqual([expect.stringContaining('.isdlc/monorepo.json')]);
  });

  it('a hook bundle is missing: the next call puts it back from the journal, and says so', () => {
    const dir = project();
    rmSync(join(dir, '.isdlc/bin/hook-tool-call.cjs'));
    const decision = call(dir, bashCall(dir, 'ls src'));
    expect(decision.kind).toBe('allow');
    expect(decision.context).toContain('.isdlc/bin/hook-tool-call.cjs');
    expect(existsSync(join(dir, '.isdlc/bin/hook-tool-call.cjs'))).toBe(true);
    expect(call(dir, skillCall(dir, 'isdlc', 'advance')).reason ?? '').not.toContain('install-integrity');
  });

  it('a hook bundle is missing and the journal has no copy of it: another bundle answers for it', () => {
    const dir = project();
    removeWithItsCopy(dir, '.isdlc/bin/hook-tool-call.cjs');
    expectOrdinaryWorkGoesOn(dir, 'hook-tool-call.cjs', '`isdlc init`');
    expectAdvancesDenied(dir, 'hook-tool-call.cjs', '`isdlc init`');
    // The bundle that is still there says so too.
    expect(call(dir, bashPassed(dir, 'ls', '')).systemMessage).toContain('hook-tool-call.cjs');
  });

  it('the turn bundle is missing: a Stop still answers, naming it', () => {
    const dir = project();
    removeWithItsCopy(dir, '.isdlc/bin/hook-turn.cjs');
    const decision = call(dir, stop(dir, 'Done.'));
    expect(decision.systemMessage).toContain('hook-turn.cjs');
    expect(decision.systemMessage).toContain('`isdlc init`');
  });

  it('a bundle that does not load is stood in for', () => {
    const dir = project();
    writeFile(join(dir, '.isdlc/bin/hook-tool-call.cjs'), 'this is not javascript (');
    expectOrdinaryWorkGoesOn(dir, 'hook-tool-call.cjs', '`isdlc init`');
    expectAdvancesDenied(dir, 'hook-tool-call.cjs', '`isdlc init`');
  });

  it('every bundle gone but the executable: it answers by itself', () => {
    const dir = project();
    const aside = tempDir('isdlc-bin-aside-');
    for (const file of ['hook-tool-call.cjs', 'hook-tool-result.cjs', 'hook-turn.cjs', 'cli.cjs']) {
      renameSync(join(dir, '.isdlc/bin', file), join(aside, file));
      removeWithItsCopy(dir, `.isdlc/bin/${file}`);
    }
    expectOrdinaryWorkGoesOn(dir, 'hook-tool-call.cjs is missing', '`isdlc init`');
    expectAdvancesDenied(dir, "none of isdlc's hook bundles", '`isdlc init`');
  });

  it('.isdlc/state.json is missing while install.json says isdlc is installed', () => {
    const dir = project();
    removeWithItsCopy(dir, '.isdlc/state.json');
    expectOrdinaryWorkGoesOn(dir, '.isdlc/state.json is missing', '`isdlc init`');
    expectAdvancesDenied(dir, '.isdlc/state.json is missing', '`isdlc init`');
  });

  it('.isdlc/bin/isdlc.cjs itself gone: nothing of isdlc runs, and Claude Code goes ahead (the limit docs/guards.md states)', () => {
    const dir = project();
    rmSync(join(dir, '.isdlc/bin/isdlc.cjs'));
    const run = runRegisteredHook(dir, mcpCall(dir, 'phase_complete'));
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
  });
});

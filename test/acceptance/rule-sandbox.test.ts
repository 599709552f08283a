// At a Stop through the hook command `init` registered: a rule the agent wrote runs in the
// OS sandbox and cannot forge isdlc's files; where no sandbox is (forced here by ISDLC_OS_SANDBOX=off in
// the hook's own environment), the agent's rules wait for a person's `isdlc loop approve`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedSnapshot } from '../helpers/guarded-snapshot.js';
import { agentStartsLoop, fixedAdd, loops, projectWithTests, SESSION, stopWith } from '../helpers/loops.js';
import { cli } from '../helpers/project.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';

/** What a Stop may not change: everything guarded but the loop store and the log, which the Stop writes itself. */
const FORGEABLE = [
  '.isdlc/state.json',
  '.isdlc/config',
  '.isdlc/bin',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mcp.json',
  'docs/isdlc/constitution.md',
  '.git',
];
const NO_SANDBOX = { ISDLC_OS_SANDBOX: 'off' };

describe.skipIf(!probeOsSandbox().ok || process.platform !== 'linux')('a rule the agent wrote, at a Stop, in the OS sandbox', () => {
  it("fails instead of forging isdlc's files; the turn is held with the reason, and nothing changed", () => {
    const project = projectWithTests();
    const forgers = [
      'echo forged > .isdlc/state.json',
      `sqlite3 .isdlc/loop.db "update loops set status='completed'"`,
      "printf 'process.exit(0)' > .isdlc/bin/isdlc.cjs",
      `echo '{"disableAllHooks":true}' > .claude/settings.local.json`,
    ];
    const { bind } = agentStartsLoop(project, [...forgers.flatMap((rule) => ['--rule', rule]), 'Make add() add'], { session_id: SESSION });
    expect(bind.context).toMatch(/is now bound to this session/);
    expect(bind.context).not.toMatch(/isdlc loop approve/);
    const before = guardedSnapshot(project, FORGEABLE);

    const answer = stopWith(project, 'Done. <promise>COMPLETE</promise>');
    expect(answer.kind).toBe('block');
    expect(answer.reason).toMatch(
      /^isdlc loop L-[0-9a-f]{10}: Fix echo forged > \.isdlc\/state\.js… \(isdlc's files: read-only\) and 3 more rules, then end your turn/,
    );
    expect(guardedSnapshot(project, FORGEABLE)).toEqual(before);
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 2 });
    expect(cli(['loop', 'status', '--dir', project]).stdout).toMatch(/it ran in an OS sandbox where isdlc's files \(\.isdlc\/, .*\) are read-only/);
    expect(readdirSync(join(project, '.isdlc')).filter((name) => name.startsWith('rule-sandbox'))).toEqual([]);
    expect(readdirSync(project)).not.toContain('.git');
  });
});

describe('without an OS sandbox, the rules an agent set wait for a person', () => {
  it('are not run at a Stop until `isdlc loop approve`, which only a person can give; then the loop runs as before', () => {
    const project = projectWithTests();
    const { bind } = agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '5', 'Make add() add'], { session_id: SESSION }, NO_SANDBOX);
    const id = loops(project)[0]!.id;
    // Told by the hook that binds the loop: it runs where the rules will, outside Claude Code's sandbox.
    expect(bind.context).toMatch(/is now bound to this session/);
    expect(bind.context).toContain(
      `Its command rules run only after a person approves them (no OS sandbox here (the OS sandbox is switched off for this process (ISDLC_OS_SANDBOX=off))): ask the person to run \`isdlc loop approve ${id}\` in their own terminal.`,
    );
    expect(loops(project)[0]).toMatchObject({ rulesSetBy: 'agent', rulesApprovedBy: null });
    const status = cli(['loop', 'status', '--dir', project], { env: NO_SANDBOX }).stdout;
    expect(status).toContain(`command rules waiting for a person's approval: run \`isdlc loop approve ${id}\` in your own terminal`);
    // From the agent's shell, which may be in Claude Code's sandbox, status cannot tell; it says what decides.
    const fromAgent = cli(['loop', 'status', '--dir', project], { env: { CLAUDECODE: '1', ...NO_SANDBOX } }).stdout;
    expect(fromAgent).toContain(`they run in an OS sandbox where isdlc's hooks can start one, else they wait for a person's \`isdlc loop approve ${id}\``);

    // The turn ends, unvalidated and with no iteration spent, however often the agent stops.
    for (let stop = 0; stop < 4; stop += 1) {
      const waiting = stopWith(project, 'Please approve the loop.', {}, NO_SANDBOX);
      expect(waiting.kind).toBe('allow');
      expect(waiting.systemMessage).toMatch(new RegExp(`^isdlc: loop ${id} waits for your approval before its command rules run \\(\`npm test\`\\)`));
      expect(waiting.systemMessage).toContain(`run \`isdlc loop approve ${id}\` in your own terminal, then ask the agent to go on`);
    }
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 1, stopBlocks: 0 });
    expect(loops(project)[0]!.history[0]).toMatchObject({ passed: null, validatedBy: null });

    const byAgent = cli(['loop', 'approve', id, '--dir', project], { env: { CLAUDECODE: '1', ...NO_SANDBOX } });
    expect(byAgent.status).toBe(2);
    expect(byAgent.stderr).toContain('approving the command rules of an iteration loop is a decision for a person: run it in your own terminal');
    expect(loops(project)[0]!.rulesApprovedBy).toBeNull();

    const byPerson = cli(['loop', 'approve', id, '--dir', project], { env: NO_SANDBOX });
    expect(byPerson.status, byPerson.stderr).toBe(0);
    expect(byPerson.stdout).toContain(`Approved the command rules of loop ${id}: \`npm test\`.`);
    expect(byPerson.stdout).toContain('they run with your rights');
    expect(loops(project)[0]!.rulesApprovedBy).toMatch(/ \(isdlc loop approve\)$/);
    expect(cli(['loop', 'approve', id, '--dir', project]).stdout).toMatch(/were approved already, by .* \(isdlc loop approve\) at /);
    expect(cli(['loop', 'status', '--dir', project], { env: NO_SANDBOX }).stdout).toMatch(
      /command rules run without an OS sandbox \(.*\), approved by .* \(isdlc loop approve\) at /,
    );

    const failing = stopWith(project, 'I wrote add().', {}, NO_SANDBOX);
    expect(failing.kind).toBe('block');
    expect(failing.reason).toMatch(/Fix npm test \(FAIL add\(1, 2\) should be 3, got -1\)/);
    fixedAdd(project);
    expect(stopWith(project, 'Fixed. <promise>COMPLETE</promise>', { stop_hook_active: true }, NO_SANDBOX).kind).toBe('allow');
    expect(loops(project)[0]).toMatchObject({ status: 'completed', iteration: 2 });
    expect(cli(['loop', 'approve', id, '--dir', project]).stderr).toMatch(/has ended \(completed.*approving its rules needs a running loop/);
  });

  it("a person's loop from their own terminal is approved from the start", () => {
    const project = projectWithTests();
    const start = cli(['loop', 'start', '--session', SESSION, '--rule', 'npm test', 'Make add() add'], { cwd: project, env: NO_SANDBOX });
    expect(start.status, start.stderr).toBe(0);
    expect(start.stdout).not.toMatch(/isdlc loop approve/);
    expect(loops(project)[0]).toMatchObject({ rulesSetBy: 'person', rulesApprovedBy: expect.stringMatching(/\(isdlc loop start in a terminal\)$/) });
    const answer = stopWith(project, 'I wrote add().', {}, NO_SANDBOX);
    expect(answer.kind).toBe('block');
    expect(answer.reason).toMatch(/Fix npm test/);
  });

  it('a loop without command rules never waits', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['Say hello'], { session_id: SESSION }, NO_SANDBOX);
    expect(stopWith(project, 'Hello.', {}, NO_SANDBOX).kind).toBe('block');
    expect(stopWith(project, 'Hello. <promise>COMPLETE</promise>', {}, NO_SANDBOX).kind).toBe('allow');
    expect(loops(project)[0]!.status).toBe('completed');
  });
});

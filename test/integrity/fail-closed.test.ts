// Without a sandbox, a forged state that isdlc could not put back must not count: not when the hook call's
// check cannot write (a full disk, played with a file-size limit on the hook's process; a journal the agent
// made read-only, played as an ordinary user, whom file modes bind), and not for a gate asked before any
// hook call came. The forgery here claims passing tests where isdlc recorded a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashPassed, skillCall } from '../helpers/payloads.js';
import { cleanEnv, cli, decisionOf, initedProject, tempDir, withoutSandbox, writeJson, type Run } from '../helpers/project.js';
import { testRecord, withTests, workflowState } from '../helpers/states.js';

const PHASE = '06-implementation';

function project(): string {
  const dir = withoutSandbox(initedProject('isdlc-fail-closed-'));
  writeJson(join(dir, '.isdlc/state.json'), withTests(workflowState('feature', PHASE), PHASE, testRecord('failed', 1)));
  return dir;
}

function forge(dir: string): string {
  const forged = `${JSON.stringify(withTests(workflowState('feature', PHASE), PHASE, testRecord('passed', 2)), null, 2)}\n`;
  writeFileSync(join(dir, '.isdlc/state.json'), forged);
  return forged;
}

/** The registered hook's program, as Claude Code starts it, in a process that may write no file past one block. */
function hookOnAFullDisk(dir: string, payload: Record<string, unknown>): Run {
  const run = spawnSync('bash', ['-c', `ulimit -f 1; exec "${process.execPath}" "${join(dir, '.isdlc/bin/isdlc.cjs')}" hook`], {
    cwd: dir,
    env: cleanEnv({ CLAUDE_PROJECT_DIR: dir }),
    input: JSON.stringify(payload),
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('a forgery isdlc could not put back does not count', () => {
  it('on a full disk the hook says it could not check, and the workflow does not move on', () => {
    const dir = project();
    const forged = forge(dir);
    const call = hookOnAFullDisk(dir, bashPassed(dir, 'ls', ''));
    expect(call.status, call.stderr).toBe(0);
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8'), 'the forgery stands: nothing could be written').toBe(forged);
    const ordinary = decisionOf(call);
    expect(ordinary.kind).toBe('allow');
    expect(ordinary.context).toContain('could not check its own files');
    // Whichever rule speaks first, the advance is refused (install-integrity refuses it when nothing else does).
    expect(decisionOf(hookOnAFullDisk(dir, skillCall(dir, 'isdlc', 'advance'))).kind).toBe('deny');
  });

  it('a gate asked before any hook call stays closed, naming the file; the next call puts it back', () => {
    const dir = project();
    forge(dir);
    const gate = cli(['gate', 'check', '--phase', PHASE, '--dir', dir]);
    expect(gate.status).toBe(1);
    expect(gate.stdout).toContain('not put back yet: .isdlc/state.json (modified)');
    // A person looking does not change anything.
    expect(
      JSON.parse(readFileSync(join(dir, '.isdlc/state.json'), 'utf8'))['phases'][PHASE]['iteration_requirements']['test_iteration']['last_test_result'],
    ).toBe('passed');
    const hook = spawnSync(process.execPath, [join(dir, '.isdlc/bin/isdlc.cjs'), 'hook'], {
      cwd: dir,
      env: cleanEnv({ CLAUDE_PROJECT_DIR: dir }),
      input: JSON.stringify(bashPassed(dir, 'ls', '')),
      encoding: 'utf8',
    });
    expect(decisionOf({ status: hook.status, stdout: hook.stdout, stderr: hook.stderr }).context).toContain('isdlc tamper-evidence');
    expect(cli(['gate', 'check', '--phase', PHASE, '--dir', dir]).stdout).not.toContain('not put back yet');
  });
});

/** `nobody`, where this runs as root and can become it: file modes bind it, as they bind a person's own account. */
const asUser = process.getuid?.() === 0 && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!asUser || process.platform !== 'linux')('a journal made read-only, as an ordinary user', () => {
  it('closes the gate, says why, and deletes nothing', () => {
    const dir = project();
    // This Node, where that user can reach it (the same file, linked into a folder anyone can read).
    const bin = tempDir('isdlc-node-for-nobody-');
    linkSync(process.execPath, join(bin, 'node'));
    spawnSync('chmod', ['755', bin]);
    spawnSync('chown', ['-R', '65534:65534', dir]);
    const asNobody = (line: string, input?: string) =>
      spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-c', line], {
        cwd: dir,
        env: cleanEnv({ CLAUDE_PROJECT_DIR: dir, PATH: `${bin}:/usr/bin:/bin`, HOME: dir }),
        encoding: 'utf8',
        ...(input === undefined ? {} : { input }),
      });
    const bins = readdirSync(join(dir, '.isdlc/bin')).sort();
    // The agent, with the person's rights: the journal read-only, then the state forged.
    expect(asNobody('chmod -R a-w .isdlc/journal').status).toBe(0);
    const forged = `${JSON.stringify(withTests(workflowState('feature', PHASE), PHASE, testRecord('passed', 2)), null, 2)}\n`;
    expect(asNobody(`cat > .isdlc/state.json`, forged).status).toBe(0);
    const hook = (payload: Record<string, unknown>) => {
      const run = asNobody(`exec node .isdlc/bin/isdlc.cjs hook`, JSON.stringify(payload));
      return decisionOf({ status: run.status, stdout: run.stdout, stderr: run.stderr });
    };
    const ordinary = hook(bashPassed(dir, 'ls', ''));
    expect(ordinary.kind).toBe('allow');
    expect(ordinary.context).toMatch(/could not check its own files on this call \(EACCES/);
    expect(hook(skillCall(dir, 'isdlc', 'advance')).kind).toBe('deny');
    const gate = asNobody('node .isdlc/bin/isdlc.cjs gate check --phase 06-implementation');
    expect(gate.status, gate.stdout + gate.stderr).toBe(1);
    // Nothing of isdlc's is gone (the code caches of this Node may have joined them).
    expect(readdirSync(join(dir, '.isdlc/bin'))).toEqual(expect.arrayContaining(bins));
    expect(existsSync(join(dir, '.isdlc/state.json'))).toBe(true);
    expect(existsSync(join(dir, '.isdlc/journal'))).toBe(true);
  });
});

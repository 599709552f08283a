// A person's side of tamper evidence: their own edits are kept with `isdlc changes accept`; changes an
// agent makes pile up into an escalation that only a person's review clears; a lost journal is said, not
// silently rebuilt; and no isdlc command completes a phase on a state someone forged.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPath } from '../../src/integrity/journal.js';
import { bashPassed } from '../helpers/payloads.js';
import { givePassingSuite } from '../helpers/test-suite.js';
import { cleanEnv, cli, decisionOf, initedProject, readJson, writeJson, type Run } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { testRecord, withTests, workflowState } from '../helpers/states.js';

const CONFIG = '.isdlc/config/iteration-requirements.json';

function project(tests: 'passed' | 'failed' = 'failed'): string {
  const dir = initedProject('isdlc-review-');
  writeJson(join(dir, '.isdlc/state.json'), withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord(tests, 1)));
  givePassingSuite(dir);
  return dir;
}

function nextCall(dir: string): Run {
  return runRegisteredHook(dir, bashPassed(dir, 'ls', ''));
}

function told(run: Run): string {
  const answer = JSON.parse(run.stdout || '{}') as { hookSpecificOutput?: { additionalContext?: string }; systemMessage?: string };
  return `${answer.hookSpecificOutput?.additionalContext ?? ''}\n${answer.systemMessage ?? ''}`;
}

/** A change made behind isdlc's back with plain fs calls (an agent's shell, or a person's editor). */
function edit(dir: string, rel: string, content: string): void {
  writeFileSync(join(dir, rel), content);
}

const person = (dir: string, args: string[]): Run => cli(args, { cwd: dir });
const gateCheck = (dir: string): { status: number | null; text: string } => {
  const run = cli(['gate', 'check', '--json'], { cwd: dir });
  return { status: run.status, text: run.stdout + run.stderr };
};

describe("a person's own edit of isdlc's config", () => {
  it('accepted before the next hook call, it stands', () => {
    const dir = project();
    const mine = '{"phase_requirements":{}}\n';
    edit(dir, CONFIG, mine);
    expect(person(dir, ['changes']).stdout).toContain(`${CONFIG} created`);
    const accepted = person(dir, ['changes', 'accept']);
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toContain(CONFIG);
    const run = nextCall(dir);
    expect(told(run)).not.toContain('tamper-evidence');
    expect(readFileSync(join(dir, CONFIG), 'utf8')).toBe(mine);
    expect(person(dir, ['changes']).stdout).toContain('Nothing waits for review');
  });

  it('undone by a hook call first, it is put back by accept and then stands', () => {
    const dir = project();
    const mine = '# my notes on the config\n';
    edit(dir, '.isdlc/config/README.md', mine);
    const run = nextCall(dir);
    expect(told(run)).toContain('.isdlc/config/README.md');
    expect(readFileSync(join(dir, '.isdlc/config/README.md'), 'utf8')).not.toBe(mine);
    expect(person(dir, ['doctor']).stdout).toMatch(/1 change\(s\) to isdlc's files made outside isdlc wait for review \(\.isdlc\/config\/README\.md\)/);
    const listed = person(dir, ['changes']).stdout;
    expect(listed).toMatch(/#1 .*\n.*README\.md modified, undone; the changed version is kept as \.isdlc\/config\/README\.md\.rejected-/);
    expect(person(dir, ['changes', 'accept', '1']).status).toBe(0);
    expect(readFileSync(join(dir, '.isdlc/config/README.md'), 'utf8')).toBe(mine);
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    expect(readFileSync(join(dir, '.isdlc/config/README.md'), 'utf8')).toBe(mine);
    expect(readdirSync(join(dir, '.isdlc/config')).filter((name) => name.includes('.rejected-'))).toEqual([]);
  });

  it('is refused from inside the agent, and an unknown number is a usage error', () => {
    const dir = project();
    const inside = cli(['changes', 'accept'], { cwd: dir, env: { CLAUDECODE: '1' } });
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain('decision for a person');
    const unknown = person(dir, ['changes', 'accept', '7']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no change waiting for review has the number 7');
  });
});

describe('changes an agent makes', () => {
  it('the third in a workflow closes the gate until a person reviews; reject keeps isdlc versions', () => {
    const dir = project('passed');
    // The gate itself is open (tests passed, nothing else required in this configuration of the phase).
    writeJson(join(dir, CONFIG), { phase_requirements: { '06-implementation': { test_iteration: { enabled: true } } } });
    expect(gateCheck(dir).status).toBe(0);
    for (let i = 1; i <= 3; i += 1) {
      edit(dir, '.isdlc/.gitignore', `forged ${i}\n`);
      const run = nextCall(dir);
      expect(told(run)).toContain(i < 3 ? `This is change ${i} of 3 in this workflow` : 'The phase gate is now closed');
      expect(gateCheck(dir).status).toBe(i < 3 ? 0 : 1);
    }
    expect(gateCheck(dir).text).toContain('tamper_review');
    const skill = decisionOf(
      runRegisteredHook(dir, {
        ...bashPassed(dir, 'ls', ''),
        hook_event_name: 'PreToolUse',
        tool_name: 'Skill',
        tool_input: { skill: 'isdlc', args: 'advance' },
      }),
    );
    expect(skill.kind).toBe('deny');
    const rejected = person(dir, ['changes', 'reject']);
    expect(rejected.status).toBe(0);
    expect(rejected.stdout).toContain('Rejected #1, #2, #3');
    expect(gateCheck(dir).status).toBe(0);
    expect(readdirSync(join(dir, '.isdlc')).filter((name) => name.includes('.rejected-'))).toEqual([]);
  });

  it('a removed journal is said, closes the gate, and is started again from the files as they are', () => {
    const dir = project('passed');
    writeJson(join(dir, CONFIG), { phase_requirements: { '06-implementation': { test_iteration: { enabled: true } } } });
    nextCall(dir); // the hooks have run here: the journal is this checkout's
    rmSync(join(dir, '.isdlc/journal'), { recursive: true });
    const run = nextCall(dir);
    expect(told(run)).toContain('journal of its own writes was removed');
    expect(existsSync(join(dir, '.isdlc/journal/index.json'))).toBe(true);
    expect(gateCheck(dir).status).toBe(1);
    expect(person(dir, ['changes', 'accept']).status).toBe(0);
    expect(gateCheck(dir).status).toBe(0);
  });

  it('a state forged in the same command as `isdlc phase complete` is put back before the command builds on it', () => {
    const dir = project('failed');
    const forge = `python3 -c "import json;p='.isdlc/state.json';s=json.load(open(p));t=s['phases']['06-implementation']['iteration_requirements']['test_iteration'];t['last_test_result']='passed';t['completed']=True;json.dump(s,open(p,'w'))"`;
    const run = spawnSync('bash', ['-c', `${forge} && node .isdlc/bin/isdlc.cjs phase complete`], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    expect(state['phases']['06-implementation']['iteration_requirements']['test_iteration']['last_test_result']).toBe('failed');
    expect(state['active_workflow']['current_phase']).toBe('06-implementation');
    expect(person(dir, ['changes']).stdout).toContain('found at a state write');
  });
});

describe('the journal itself', () => {
  it('a write isdlc had begun when it stopped (its next copy in place) is isdlc’s, not a change', () => {
    const dir = project();
    const state = readFileSync(join(dir, '.isdlc/state.json'), 'utf8').replace('"state_version": 7', '"state_version": 8');
    writeFileSync(copyPath(dir, '.isdlc/state.json', true), state);
    writeFileSync(join(dir, '.isdlc/state.json'), state);
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(state);
    expect(existsSync(copyPath(dir, '.isdlc/state.json', true))).toBe(false);
  });

  it('a project set up before the journal gets one at its first hook call, silently', () => {
    const dir = project();
    rmSync(join(dir, '.isdlc/journal'), { recursive: true });
    const record = readJson<Record<string, unknown>>(join(dir, '.isdlc/install.json'));
    delete record['journal'];
    writeFileSync(join(dir, '.isdlc/install.json'), JSON.stringify(record));
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    expect(existsSync(join(dir, '.isdlc/journal/index.json'))).toBe(true);
    expect(readJson<Record<string, unknown>>(join(dir, '.isdlc/install.json'))['journal']).toBe(true);
    edit(dir, '.isdlc/.gitignore', 'forged\n');
    expect(told(nextCall(dir))).toContain('.isdlc/.gitignore');
  });

  it('init run after a forged change undoes it first, so it never takes someone else’s change as isdlc’s', () => {
    const dir = project('failed');
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    edit(dir, '.isdlc/state.json', before.replace('"failed"', '"passed"'));
    const init = cli(['init', dir], { cwd: dir });
    expect(init.status).toBe(0);
    expect(init.stdout).toMatch(
      /\.isdlc\/state\.json.*changed outside isdlc since its last write: undone, the changed version kept as \.isdlc\/state\.json\.rejected-/,
    );
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
  });

  it('a fresh clone (no journal, no activity log: both stay out of git) starts its journal silently', () => {
    const dir = project();
    expect(readFileSync(join(dir, '.isdlc/.gitignore'), 'utf8')).toMatch(/^journal\/$/m);
    rmSync(join(dir, '.isdlc/journal'), { recursive: true });
    rmSync(join(dir, '.isdlc/hook-activity.log'), { force: true });
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    edit(dir, '.isdlc/.gitignore', 'forged\n');
    expect(told(nextCall(dir))).toContain('.isdlc/.gitignore');
  });

  it("a sandbox's stand-ins for names that should be absent are left where they are (taking one away would lift its mount)", () => {
    const dir = project();
    mkdirSync(join(dir, '.claude/hooks/config'), { recursive: true });
    writeFileSync(join(dir, '.claude/settings.local.json'), '');
    writeFileSync(join(dir, '.isdlc/config/empty.json'), '');
    expect(told(nextCall(dir))).not.toContain('tamper-evidence');
    expect(existsSync(join(dir, '.claude/hooks/config'))).toBe(true);
    expect(existsSync(join(dir, '.claude/settings.local.json'))).toBe(true);
    // Something in them is a change like any other.
    writeFileSync(join(dir, '.claude/settings.local.json'), '{"disableAllHooks":true}');
    expect(told(nextCall(dir))).toContain('.claude/settings.local.json');
  });

  it('uninstall takes the journal away with the rest of what isdlc installed', () => {
    const dir = project();
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(existsSync(join(dir, '.isdlc/journal'))).toBe(false);
  });
});

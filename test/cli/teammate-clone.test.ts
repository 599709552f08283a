// A teammate clones a project someone set isdlc up in and committed: what git carries is all they get
// (no journal, no code caches, no activity log, no loop store). Their hooks must answer as on the first
// machine, and doctor must pass.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { cli, git, tempDir, writeJson } from '../helpers/project.js';

function committedProject(): string {
  const dir = tempDir('isdlc-first-machine-');
  writeJson(join(dir, 'package.json'), { name: 'shop', scripts: { test: 'node -e ""' } });
  git(dir, 'init', '-q', '-b', 'main');
  expect(cli(['init', dir, '--claude-version', '2.1.332']).status).toBe(0);
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export orders', '--dir', dir]).status).toBe(0);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'isdlc set up');
  return dir;
}

const tracked = (dir: string): string[] => execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);

describe("a teammate's clone of a committed project", () => {
  it('carries the program and config, and nothing local to one machine (the workflow state is)', () => {
    const dir = committedProject();
    const ours = tracked(dir).filter((path) => path.startsWith('.isdlc/'));
    expect(ours).not.toContain('.isdlc/state.json');
    expect(ours).toContain('.isdlc/install.json');
    expect(ours).toContain('.isdlc/bin/isdlc.cjs');
    expect(ours).toContain('.isdlc/config/testing.json');
    expect(ours.filter((path) => /journal\/|\.cache$|\.node$|\.log|loop\.db|\.lock$|\.tmp$|branch-heads\//.test(path))).toEqual([]);
    const bytes = ours.reduce((sum, path) => sum + statSync(join(dir, path)).size, 0);
    expect(bytes).toBeLessThan(2.5 * 1024 * 1024);
  });

  it('answers every kind of hook call cleanly, records no change by anyone else, and doctor passes', () => {
    const first = committedProject();
    const clone = join(tempDir('isdlc-teammate-'), 'shop');
    execFileSync('git', ['clone', '-q', first, clone]);
    const base = { session_id: 'teammate', transcript_path: join(clone, 'transcript.jsonl'), cwd: clone };
    const calls: Record<string, unknown>[] = [
      { hook_event_name: 'SessionStart', source: 'startup' },
      { hook_event_name: 'UserPromptSubmit', prompt: 'carry on with the export' },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' },
      {
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: { stdout: 'package.json', stderr: '', interrupted: false },
        tool_use_id: 't1',
      },
      { hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(clone, 'src/export.js'), content: 'export {}\n' }, tool_use_id: 't2' },
      { hook_event_name: 'Stop', stop_hook_active: false },
    ];
    for (const call of calls) {
      const run = runRegisteredHook(clone, { ...base, ...call });
      const what = String(call['hook_event_name']);
      expect(run.status, `${what}: ${run.stderr}`).toBe(0);
      expect(`${run.stdout}${run.stderr}`, what).not.toMatch(/broken|missing|not isdlc's|changed outside/i);
      expect(run.stdout, what).not.toMatch(/"(?:permissionDecision|decision)":"(?:deny|block)"/);
    }
    const changes = cli(['changes', 'list', '--json', '--dir', clone]);
    expect(changes.status, changes.stderr).toBe(0);
    expect(JSON.parse(changes.stdout)).toMatchObject({ incidents: [] });
    const doctor = cli(['doctor', clone, '--claude-version', '2.1.332']);
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/All good/);
  });
});

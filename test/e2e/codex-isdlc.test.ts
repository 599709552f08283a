// The real Codex (0.171.0, offline against the scripted Responses API) in a project as `isdlc init --host
// codex` leaves it: isdlc's hooks run (the activity log names the host of each call), the permission profile keeps the
// agent's shell and apply_patch off every guarded file whatever the route, ordinary work goes on, and a
// hook that cannot answer denies instead of letting the call through.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { STATE, changedPaths, guardedBytes, isdlcProject } from './harness/codex-isdlc.js';
import { addFile, applyPatch, call, say, shell, updateFile } from './harness/codex-script.js';
import { runCodex, usesCodex } from './harness/codex-session.js';
import { cli, readJson } from '../helpers/project.js';

usesCodex();

const stateOf = (dir: string): Record<string, any> => readJson(join(dir, STATE));

describe('Codex in a project isdlc set up', () => {
  test("isdlc's hooks run: the session start is recorded, and doctor says so", async () => {
    const project = isdlcProject();
    const run = await runCodex(project, { turns: [say('Hello.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    const logged = readFileSync(join(project.dir, '.isdlc/hook-activity.log'), 'utf8');
    expect(logged).toContain('"event":"SessionStart","host":"codex"');
    const doctor = cli(['doctor', project.dir, '--json'], { env: { CODEX_HOME: project.codexHome, PATH: process.env['PATH'] ?? '' } });
    const findings = (JSON.parse(doctor.stdout) as { findings: { severity: string; what: string }[] }).findings;
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'ok', what: 'Codex trusts this project' }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'ok', what: expect.stringContaining("isdlc's hooks ran under Codex") }));
  });

  test('no route of the shell or apply_patch changes a guarded file, and the state keeps only what isdlc wrote', async () => {
    const project = isdlcProject();
    const before = guardedBytes(project);
    const stateBefore = readFileSync(join(project.dir, STATE), 'utf8');
    const routes = [
      shell(`echo '{"forged":1}' > ${STATE}`),
      shell(`rm -f ${STATE}`),
      shell(`mv ${STATE} /tmp/moved.json`),
      shell('cd .isdlc && printf x > state.json'),
      shell(`python3 -c "open('${STATE}','w').write('x')"`),
      shell(`node -e "require('fs').writeFileSync('${STATE}','x')"`),
      shell('ln -s /tmp/elsewhere .isdlc/link'),
      shell(`ln ${STATE} hard-link.json`),
      shell('echo x >> docs/isdlc/constitution.md'),
      shell('echo "[mcp_servers.evil]" >> .codex/config.toml'),
      shell('echo {} > .codex/hooks.json'),
      shell('mkdir -p .isdlc/config && echo {} > .isdlc/config/testing.json'),
    ];
    const patches = [
      applyPatch(addFile('.isdlc/planted.json', '{}')),
      applyPatch(['*** Begin Patch', `*** Delete File: ${STATE}`, '*** End Patch'].join('\n')),
      applyPatch(updateFile('docs/isdlc/constitution.md', [readFileSync(join(project.dir, 'docs/isdlc/constitution.md'), 'utf8').split('\n')[0]!], ['# mine'])),
      applyPatch(addFile('.codex/agents/evil.toml', 'name = "x"')),
    ];
    const run = await runCodex(project, { turns: [...routes.map((item) => call(item)), ...patches.map((item) => call(item)), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(changedPaths(before, guardedBytes(project))).toEqual([]);
    const state = readFileSync(join(project.dir, STATE), 'utf8');
    expect(state).not.toContain('forged');
    expect(stateOf(project.dir)['project_name']).toBe(JSON.parse(stateBefore)['project_name']);
    expect(existsSync(join(project.dir, 'hard-link.json'))).toBe(false);
    // The agent was told, in the tool's output, that the file system refused.
    expect(run.api.output(run.api.callIds('exec_command')[0]!)).toContain('Read-only file system');
  });

  test.each(['codex', 'claude-code,codex'])(
    'ordinary work goes on (set up for %s): a source edit by patch, the tests, a build, a commit on a feature branch; .git/config and .git/hooks stay held',
    async (hosts) => {
      const project = isdlcProject(hosts);
      const run = await runCodex(project, {
        turns: [
          call(applyPatch(updateFile('sum.js', ['module.exports = (a, b) => a + b;'], ['module.exports = (a, b) => b + a;']))),
          call(shell('node --test')),
          call(shell('npm run build --silent && ls dist')),
          call(shell('git switch -q -c feat/sum && git add -A && git -c user.email=a@b -c user.name=a commit -qm "sum" && git log --oneline -1')),
          call(shell('git config core.hooksPath /tmp/evil; echo x > .git/hooks/pre-commit')),
          say('Done.'),
        ],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(readFileSync(join(project.dir, 'sum.js'), 'utf8'), run.api.output(run.api.callIds('apply_patch')[0]!)).toContain('b + a');
      const [tests, build, commit, hooks] = run.api.callIds('exec_command');
      expect(run.api.output(build!)).toContain('sum.js');
      expect(existsSync(join(project.dir, 'dist/sum.js'))).toBe(true);
      expect(run.api.output(tests!)).toContain('pass 1');
      // Codex's workspace profile alone holds all of .git read-only; isdlc's names it writable but for its config and hooks.
      expect(run.api.output(commit!)).toContain('Process exited with code 0');
      expect(execFileSync('git', ['log', '--oneline', 'feat/sum'], { cwd: project.dir, encoding: 'utf8' }).trim().split('\n')).toHaveLength(2);
      expect(run.api.output(hooks!)).toContain('Read-only file system');
      expect(spawnSync('git', ['config', '--get', 'core.hooksPath'], { cwd: project.dir, encoding: 'utf8' }).stdout).toBe('');
    },
  );

  test("a hook that cannot answer denies (Codex would let the call run): isdlc's bundles gone, a shell call is refused", async () => {
    const project = isdlcProject();
    // What a broken install looks like to Codex: the program the hooks run is not there.
    writeFileSync(join(project.dir, '.isdlc/bin/isdlc.cjs'), 'process.exit(1);\n');
    const run = await runCodex(project, { turns: [call(shell('touch ran.txt')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(project.dir, 'ran.txt'))).toBe(false);
    expect(run.api.output(run.api.callIds('exec_command')[0]!)).toContain("isdlc's hook could not answer");
  });
});

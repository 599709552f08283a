// The package as a stranger gets it: `npm pack`, then installed from the tarball with no network (`npm i
// -g`, `npx`) on each supported Node (22 and 24, fetched from the npm registry's node-linux packages by
// .ci/node and cached), and used: init, doctor, a loop held at a Stop, a phase completed through its gate.
// Nothing may be compiled on the way, and nothing Node-version-specific may ship.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { cleanEnv, readJson, REPO, tempDir, writeJson } from '../helpers/project.js';

const NODES = ['22.23.3', '24.21.0'];

/** The bin folder of a pinned Node, fetched once into the user's cache. */
function nodeBin(version: string): string {
  return execFileSync('bash', [join(REPO, '.ci/node'), version], { encoding: 'utf8', timeout: 5 * 60_000 }).trim();
}

let tarball: string;
beforeAll(() => {
  const dir = tempDir('isdlc-pack-');
  const name = execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: REPO, encoding: 'utf8', env: cleanEnv() })
    .trim()
    .split('\n')
    .at(-1)!;
  tarball = join(dir, name);
}, 120_000);

interface Machine {
  env: NodeJS.ProcessEnv;
  run(command: string, args: string[], options?: { cwd?: string }): { status: number | null; stdout: string; stderr: string };
}

/** A fresh machine: this Node first on the PATH, an empty npm cache and global prefix, no network. */
function machine(version: string): Machine {
  const home = tempDir('isdlc-stranger-');
  const prefix = join(home, 'prefix');
  mkdirSync(prefix);
  const env = cleanEnv({
    PATH: [nodeBin(version), join(prefix, 'bin'), process.env['PATH'] ?? ''].join(delimiter),
    npm_config_prefix: prefix,
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  });
  return {
    env,
    run: (command, args, options = {}) => {
      const result = spawnSync(command, args, { cwd: options.cwd ?? home, env, encoding: 'utf8', timeout: 120_000 });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

/** Requirements with every check off: the phase completes through the gate as soon as it is active. */
function openGates(project: string, isdlc: (args: string[]) => string): void {
  const requirements = JSON.parse(isdlc(['config', 'show', 'iteration-requirements', '--bundled'])) as {
    phase_requirements: Record<string, Record<string, unknown>>;
    workflow_overrides?: unknown;
  };
  for (const phase of Object.values(requirements.phase_requirements)) {
    for (const value of Object.values(phase)) if (value && typeof value === 'object' && 'enabled' in value) (value as { enabled: boolean }).enabled = false;
  }
  requirements.workflow_overrides = {};
  writeJson(join(project, '.isdlc/config/iteration-requirements.json'), requirements);
  isdlc(['changes', 'accept', '--dir', project]);
}

describe.each(NODES)('the packed tarball on Node %s, offline', (version) => {
  it('installs with no compile step and nothing native, and init, doctor, a loop and a phase work', () => {
    expect(readdirSync(join(REPO, 'dist')).filter((name) => name.endsWith('.node'))).toEqual([]);
    const host = machine(version);
    const install = host.run('npm', ['i', '-g', tarball]);
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/gyp|prebuild|compil/i);
    const installed = join(String(host.env['npm_config_prefix']), 'lib/node_modules/isdlc');
    expect(existsSync(join(installed, 'dist/isdlc.cjs'))).toBe(true);
    expect(existsSync(join(installed, 'node_modules')), 'no runtime dependencies').toBe(false);
    const shipped = readdirSync(installed, { recursive: true, encoding: 'utf8' });
    expect(
      shipped.filter((name) => name.endsWith('.node')),
      'nothing compiled for one Node or platform',
    ).toEqual([]);
    expect(shipped).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', join('dist', 'isdlc.cjs'), join('dist', 'schemas', 'testing.json'), join('docs', 'architecture.md')]),
    );
    const ls = host.run('npm', ['ls', '--prod', '--all', '--parseable'], { cwd: installed });
    expect(ls.stdout.trim().split('\n').filter(Boolean)).toEqual([installed]);

    const isdlc = (args: string[], cwd?: string): string => {
      const run = host.run('isdlc', args, cwd ? { cwd } : {});
      expect(run.status, `isdlc ${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stderr, 'no warning from Node reaches the terminal').not.toMatch(/ExperimentalWarning|Warning:/);
      return run.stdout;
    };
    const project = tempDir('isdlc-stranger-project-');
    writeJson(join(project, 'package.json'), { name: 'shop', scripts: { test: 'node -e ""' } });
    isdlc(['init', project, '--claude-version', '2.1.332']);
    expect(readdirSync(join(project, '.isdlc/bin')).filter((name) => name.endsWith('.node'))).toEqual([]);
    const doctor = isdlc(['doctor', project, '--claude-version', '2.1.332']);
    expect(doctor).toContain(`✓ Node.js ${version} runs the hooks`);
    expect(doctor).toMatch(/✓ iteration loops: SQLite [\d.]+ loads/);

    // A loop holds its session at a Stop: the registered hook runs on this machine's `node`.
    isdlc(['loop', 'start', '--dir', project, '--session', 'S-pack', '--rule', "node -e ''", 'Export orders as CSV']);
    const stop = runRegisteredHook(
      project,
      { session_id: 'S-pack', transcript_path: join(project, 't.jsonl'), cwd: project, hook_event_name: 'Stop', stop_hook_active: false },
      { PATH: String(host.env['PATH']) },
    );
    expect(stop.status, stop.stderr).toBe(0);
    expect(stop.stderr).not.toMatch(/Warning/);
    expect(JSON.parse(stop.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('isdlc loop') });

    // A phase completes through its gate.
    openGates(project, (args) => isdlc(args));
    isdlc(['workflow', 'start', 'fix', '--description', 'crash on an empty cart', '--dir', project]);
    isdlc(['phase', 'activate', '--dir', project]);
    const completed = JSON.parse(isdlc(['phase', 'complete', '--summary', 'requirements written', '--json', '--dir', project])) as {
      phase: string;
      next: string;
      gate: { open: boolean };
    };
    expect(completed).toMatchObject({ phase: '01-requirements', next: '02-tracing', gate: { open: true } });
    expect(readJson<{ phases: Record<string, { status: string }> }>(join(project, '.isdlc/state.json')).phases['01-requirements']?.status).toBe('completed');

    // npx straight from the tarball, into another project.
    const other = tempDir('isdlc-stranger-npx-');
    // As the README has it: a path npx reads as a package (`./…`), not as a command to run.
    const npx = host.run('npx', ['--yes', `./${basename(tarball)}`, 'init', other, '--claude-version', '2.1.332'], { cwd: dirname(tarball) });
    expect(npx.status, npx.stderr).toBe(0);
    expect(existsSync(join(other, '.isdlc/bin/isdlc.cjs'))).toBe(true);
  }, 240_000);
});

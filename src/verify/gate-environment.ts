// What the gate's test run inherits, and what it refuses to start with. `isdlc phase complete` may be run
// from the agent's own shell, so its environment is the agent's: a PATH with the agent's folders first, a
// NODE_OPTIONS that loads the agent's code into the runner, a switch that turns the OS sandbox off. The run
// gets the environment a person's terminal would give it, and a program the project's own folders put in
// front of the system's (a `node` in node_modules/.bin, a `pytest.py` at the root) stops it.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { agentWritableFolder, tempFolders } from '../util/program-path.js';

/** Variables that change what a runner loads or how it judges, whoever set them. */
const NOT_INHERITED =
  /^(?:NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*|BASH_ENV|ENV|ZDOTDIR|PYTEST_.*|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|PYTHONSAFEPATH|GOFLAGS|RUSTFLAGS|RUSTDOCFLAGS|RUSTC_WRAPPER|RUSTC|CARGO_BUILD_.*|CARGO_TARGET_.*|npm_config_.*|NPM_CONFIG_.*|YARN_.*|PNPM_.*|JEST_.*|VITEST.*|MOCHA_.*|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|ISDLC_.*)$/i;

/**
 * `hostMarkers`: the variables the agent hosts set in their agent's shell (Claude Code's CLAUDECODE): a test
 * that reads one could tell the gate's run from a person's, so none reaches it.
 */
export function gateEnvironment(root: string, hostMarkers: readonly string[], env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const temps = tempFolders(env);
  const markers = new Set(hostMarkers.map((name) => name.toUpperCase()));
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!NOT_INHERITED.test(key) && !markers.has(key.toUpperCase())) out[key] = value;
  const path = (env['PATH'] ?? '').split(':').filter((folder) => folder !== '' && !agentWritableFolder(folder, root, temps));
  out['PATH'] = path.length > 0 ? path.join(':') : '/usr/local/bin:/usr/bin:/bin';
  // Settings a test of an earlier run could have left in the home folder or npm's prefix (writable by the
  // person, so by the agent's code wherever no sandbox holds it): npm's user and global config (node-options,
  // script-shell) and Python's user site (usercustomize) are not read. The global file's path cannot exist (a
  // second /dev/null would be refused as loaded twice), and the shell that runs package scripts is the system's
  // whatever a config file says.
  out['npm_config_userconfig'] = '/dev/null';
  out['npm_config_globalconfig'] = '/dev/null/npmrc';
  if (process.platform !== 'win32') out['npm_config_script_shell'] = '/bin/sh';
  out['PYTHONNOUSERSITE'] = '1';
  return out;
}

/** Programs a package manager's script finds in node_modules/.bin before the system's. */
const SYSTEM_PROGRAMS = ['node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'sh', 'bash', 'dash', 'zsh', 'env', 'python', 'python3', 'go', 'cargo', 'make'];

/** Why the run would not be the command it looks like, or undefined. */
export function shadowedProgram(root: string, command: string): string | undefined {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    for (const name of SYSTEM_PROGRAMS) {
      const bin = join(dir, 'node_modules', '.bin', name);
      if (existsSync(bin))
        return `${relative(root, bin) || bin} would run instead of the system's ${name} (npm puts node_modules/.bin first on a script's PATH)`;
    }
    if (dirname(dir) === dir) break;
  }
  // `python -m X` imports the project's own X first (the working folder leads sys.path).
  for (const match of command.matchAll(/(?:^|\s)-m\s+([A-Za-z_][\w.]*)/g)) {
    const top = match[1]!.split('.')[0]!;
    for (const candidate of [`${top}.py`, join(top, '__init__.py')]) {
      if (existsSync(join(root, candidate))) return `${candidate} in the project would be imported instead of the installed ${top} (\`-m ${match[1]}\`)`;
    }
  }
  return undefined;
}

// The built CLI (dist/cli.cjs, the bundle every `isdlc` command but the hook's hot path runs) driven in
// the test's own process: a command or a hook call costs a few milliseconds here against 50–180 in a child
// Node, and the suite makes thousands. What this leaves out is the executable around the bundle (the
// launcher, the choice of hook bundle, the check of the installed bundles, the code caches, exiting):
// the tests of those run the real process (cliProcess, hookProcess, runRegisteredHook).
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface CliBundle {
  mainSync(argv: string[]): number;
  answerHook(args: string[], input: { bytes: Buffer; truncated: boolean }, where: { env: NodeJS.ProcessEnv; cwd: string }): { stdout: string; stderr: string };
}

export interface Answer {
  status: number;
  stdout: string;
  stderr: string;
}

let loaded: CliBundle | undefined;
function cliBundle(repo: string): CliBundle {
  loaded ??= createRequire(import.meta.url)(join(repo, 'dist/cli.cjs')) as CliBundle;
  return loaded;
}

function replaceEnv(next: NodeJS.ProcessEnv): void {
  // In place, not a new object: Node passes process.env's own entries on to the OS (HOME for os.homedir(),
  // PATH for the children a command starts).
  for (const key of Object.keys(process.env)) if (!(key in next) || next[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(next)) if (value !== undefined) process.env[key] = value;
}

type Write = typeof process.stdout.write;

/** Runs `work` as if this process had been started in `cwd` with `env`, taking what it prints. */
function asChildOf<T>(cwd: string, env: NodeJS.ProcessEnv, work: () => T): { value?: T; stdout: string; stderr: string; error?: Error } {
  const saved = {
    env: { ...process.env },
    cwd: process.cwd(),
    exitCode: process.exitCode,
    out: process.stdout.write.bind(process.stdout),
    err: process.stderr.write.bind(process.stderr),
  };
  let stdout = '';
  let stderr = '';
  const taking =
    (append: (text: string) => void): Write =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  replaceEnv(env);
  process.chdir(cwd);
  process.exitCode = undefined;
  process.stdout.write = taking((text) => (stdout += text));
  process.stderr.write = taking((text) => (stderr += text));
  try {
    return { value: work(), stdout, stderr };
  } catch (error) {
    return { stdout, stderr, error: error instanceof Error ? error : new Error(JSON.stringify(error)) };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    process.exitCode = saved.exitCode;
    process.chdir(saved.cwd);
    replaceEnv(saved.env);
  }
}

/** `isdlc ARGS` through the built CLI in this process (not `phase complete` or `mcp`: they finish later). */
export function cliInProcess(repo: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Answer {
  const run = asChildOf(cwd, env, () => cliBundle(repo).mainSync([process.execPath, join(repo, 'dist/isdlc.cjs'), ...args]));
  if (run.error !== undefined) {
    // What the executable does with an error nobody explained: its stack on stderr, status 1.
    return { status: 1, stdout: run.stdout, stderr: `${run.stderr}isdlc: ${run.error.stack ?? run.error.message}\n` };
  }
  return { status: run.value ?? 0, stdout: run.stdout, stderr: run.stderr };
}

/** One hook call answered by the built CLI's whole registry in this process, as `isdlc hook ARGS` would answer it. */
export function hookInProcess(repo: string, args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv): Answer {
  const run = asChildOf(cwd, env, () => cliBundle(repo).answerHook(args, { bytes: Buffer.from(input, 'utf8'), truncated: false }, { env: process.env, cwd }));
  if (run.error !== undefined) throw run.error;
  return { status: 0, stdout: run.value!.stdout + run.stdout, stderr: run.value!.stderr + run.stderr };
}

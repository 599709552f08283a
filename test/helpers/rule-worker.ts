// One `command` rule run the way a Stop runs rules: on the validation worker (dist/loop.cjs --validate, as
// the hook starts it), as a loop nobody approved, unless `unguarded` runs it as a person's rule where no
// sandbox is (the control that shows a route does work).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { GUARDED } from './hosts.js';
import { REPO } from './project.js';
import type { RuleResult, ValidationReport } from '../../src/loop/types.js';

const LOOP_BUNDLE = join(REPO, 'dist/loop.cjs');

export function runRuleOnWorker(project: string, command: string, options: { env?: NodeJS.ProcessEnv; unguarded?: boolean } = {}): RuleResult {
  const env = options.env ?? process.env;
  const unguarded = options.unguarded === true;
  const request = {
    rules: [{ type: 'command', name: 'route', enabled: true, command, expectedExitCode: 0, timeoutSeconds: 20 }],
    // The hook or server that runs the rules finds the host's files from its own environment.
    context: { root: project, protect: GUARDED.protectedPaths(env), agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: unguarded } },
    deadline: Date.now() + 30_000,
  };
  const child = spawnSync(process.execPath, [LOOP_BUNDLE, '--validate'], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    cwd: project,
    env: unguarded ? { ...env, ISDLC_OS_SANDBOX: 'off' } : env,
    timeout: 40_000,
  });
  if (child.status !== 0) throw new Error(`validation failed: ${child.stderr}`);
  return (JSON.parse(child.stdout) as ValidationReport).results[0]!;
}

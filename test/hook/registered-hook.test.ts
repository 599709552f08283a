// The hook command `isdlc init` registered, run the way Claude Code runs it, in a project that has no
// node_modules at all (a Python project), answering recorded payloads.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activityLog, cli, decisionOf, fixture, lastActivity, tempDir, writeFile } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

function pythonProject(): string {
  const dir = tempDir('isdlc-py-');
  writeFile(join(dir, 'pyproject.toml'), '[project]\nname = "shop"\n');
  writeFile(join(dir, 'tests/test_cart.py'), 'def test_total():\n    assert 1 + 1 == 2\n');
  expect(cli(['init', dir]).status).toBe(0);
  expect(cli(['workflow', 'start', 'feature', '--description', 'Cart totals', '--dir', dir]).status).toBe(0);
  return dir;
}

describe('the registered hook command', () => {
  it('runs without any node_modules in or above the project', () => {
    const dir = pythonProject();
    expect(readdirSync(dir)).not.toContain('node_modules');
    expect(existsSync(join(dir, '..', 'node_modules'))).toBe(false);
    const run = runRegisteredHook(dir, fixture('pre-bash.json', dir));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('denies a recorded PreToolUse Agent payload that skips ahead, with a reason for the model', () => {
    const dir = pythonProject();
    const payload = fixture('pre-agent.json', dir);
    (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'software-developer';
    const run = runRegisteredHook(dir, payload);
    expect(run.status).toBe(0);
    const decision = decisionOf(run);
    expect(decision.kind).toBe('deny');
    expect(decision.reason).toContain('06-implementation');
    expect(decision.reason).toContain('00-quick-scan');
    expect(decision.raw).not.toHaveProperty('continue');
    expect(lastActivity(dir)).toMatchObject({ event: 'PreToolUse', tool: 'Agent', decision: 'deny', guard: 'phase-sequence-guard' });
  });

  it('allows the recorded PreToolUse Agent payload as recorded (a general-purpose subagent)', () => {
    const dir = pythonProject();
    const run = runRegisteredHook(dir, fixture('pre-agent.json', dir));
    expect(decisionOf(run).kind).toBe('allow');
    expect(lastActivity(dir)).toMatchObject({ decision: 'allow' });
    expect(lastActivity(dir)['ran']).toContain('phase-sequence-guard');
  });

  it('allows the current phase agent through the legacy Task name', () => {
    const dir = pythonProject();
    const payload = fixture('pre-task-legacy.json', dir);
    (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'quick-scan-agent';
    expect(decisionOf(runRegisteredHook(dir, payload)).kind).toBe('allow');
  });

  it('answers a recorded Bash PostToolUseFailure: allowed, with the exit code read from the error', () => {
    const dir = pythonProject();
    for (const [name, code] of [
      ['post-failure-bash.json', 1],
      ['post-failure-bash-exit3.json', 3],
    ] as const) {
      const run = runRegisteredHook(dir, fixture(name, dir));
      expect(run.status).toBe(0);
      expect(decisionOf(run).kind).toBe('allow');
      expect(lastActivity(dir)).toMatchObject({ event: 'PostToolUseFailure', tool: 'Bash', exit_code: code, decision: 'allow' });
    }
  });

  it('answers every other recorded event it is registered for with an allow', () => {
    const dir = pythonProject();
    for (const name of ['post-bash.json', 'post-agent-completed.json', 'post-agent-async.json', 'post-write.json', 'stop.json', 'subagent-stop.json']) {
      const run = runRegisteredHook(dir, fixture(name, dir));
      expect(run.status, name).toBe(0);
      expect(decisionOf(run).kind, name).toBe('allow');
    }
    expect(activityLog(dir).length).toBeGreaterThanOrEqual(6);
  });

  it('finds the project from CLAUDE_PROJECT_DIR even when called from a subdirectory', () => {
    const dir = pythonProject();
    mkdirSync(join(dir, 'src/shop'), { recursive: true });
    const payload = fixture('pre-agent.json', join(dir, 'src/shop'));
    (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'software-developer';
    expect(decisionOf(runRegisteredHook(dir, payload)).kind).toBe('deny');
  });

  it('in a monorepo, judges each call against the state of the project it was made in', () => {
    const dir = tempDir('isdlc-mono-');
    writeFile(
      join(dir, '.isdlc/monorepo.json'),
      JSON.stringify({ default_project: 'web-frontend', projects: { 'api-service': { path: 'services/api' }, 'web-frontend': { path: 'apps/web' } } }),
    );
    mkdirSync(join(dir, 'services/api/src'), { recursive: true });
    mkdirSync(join(dir, 'apps/web'), { recursive: true });
    expect(cli(['init', dir]).status).toBe(0);
    expect(cli(['workflow', 'start', 'feature', '--dir', dir, '--project', 'api-service']).status).toBe(0);
    const call = (cwd: string, env: Record<string, string> = {}) => {
      const payload = fixture('pre-agent.json', cwd);
      (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'software-developer';
      return decisionOf(runRegisteredHook(dir, payload, env)).kind;
    };
    expect(call(join(dir, 'services/api/src'))).toBe('deny');
    expect(call(join(dir, 'apps/web'))).toBe('allow');
    expect(call(dir)).toBe('allow'); // the default project has no workflow
    expect(call(dir, { ISDLC_PROJECT: 'api-service' })).toBe('deny');
    expect(lastActivity(dir)['project']).toBe('api-service');
  });

  it("reads a project's YAML skills manifest (the YAML parser ships beside the hook)", () => {
    const dir = pythonProject();
    writeFile(
      join(dir, '.isdlc/config/skills-manifest.yaml'),
      [
        'ownership:',
        '  quick-scan-agent: { agent_id: QS, phase: 00-quick-scan }',
        '  python-implementer:',
        '    agent_id: "05"',
        '    phase: 06-implementation',
        '',
      ].join('\n'),
    );
    const payload = fixture('pre-agent.json', dir);
    (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'python-implementer';
    const decision = decisionOf(runRegisteredHook(dir, payload));
    expect(decision.kind).toBe('deny');
    expect(decision.reason).toContain('python-implementer');
    expect(lastActivity(dir)['config_problems']).toBeUndefined();
  });

  it('never runs an old code cache against a changed hook bundle of the same size', () => {
    const dir = pythonProject();
    const payload = fixture('pre-agent.json', dir);
    (payload['tool_input'] as Record<string, unknown>)['subagent_type'] = 'software-developer';
    expect(decisionOf(runRegisteredHook(dir, payload)).reason).toContain('out-of-order phase delegation');
    expect(readdirSync(join(dir, '.isdlc/bin')).some((name) => name.endsWith('.cache'))).toBe(true);
    const bundle = join(dir, '.isdlc/bin/hook-tool-call.cjs');
    const source = readFileSync(bundle, 'utf8');
    writeFile(bundle, source.replace('out-of-order phase delegation', 'OUT-OF-ORDER PHASE DELEGATION'));
    expect(readFileSync(bundle, 'utf8').length).toBe(source.length);
    expect(decisionOf(runRegisteredHook(dir, payload)).reason).toContain('OUT-OF-ORDER PHASE DELEGATION');
    expect(readdirSync(join(dir, '.isdlc/bin')).filter((name) => name.startsWith('hook-tool-call.cjs.') && name.endsWith('.cache'))).toHaveLength(1);
  });

  it('keeps the activity log bounded', () => {
    const dir = pythonProject();
    writeFile(join(dir, '.isdlc/hook-activity.log'), `${'{"filler":true}\n'.repeat(70_000)}`);
    runRegisteredHook(dir, fixture('pre-bash.json', dir));
    expect(existsSync(join(dir, '.isdlc/hook-activity.log.1'))).toBe(true);
    expect(activityLog(dir)).toHaveLength(1);
  });
});

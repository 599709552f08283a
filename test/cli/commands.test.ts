// doctor, status, workflow start, replay and config, as a user runs them.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustedHome, withClaude } from '../helpers/claude-code.js';
import { cli, git, initedProject, initedProjectWithTests, readJson, REPO, tempDir, writeFile, writeJson } from '../helpers/project.js';

describe('isdlc doctor', () => {
  it('passes a fresh install, proving each registered command runs, and changes nothing', () => {
    const dir = initedProjectWithTests();
    const state = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    const run = cli(['doctor', dir]);
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(state);
    expect(existsSync(join(dir, '.isdlc/hook-activity.log'))).toBe(false);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toContain('PreToolUse [Agent|Task]: registered command runs and answers');
    expect(run.stdout).toMatch(/all \d+ guards load in the 3 hook bundles: .*phase-sequence-guard/);
    expect(run.stdout).toContain('config files agree');
    expect(run.stdout).toMatch(/iteration loops: SQLite 3\.\d+\.\d+ loads; no loop yet/);
    expect(run.stdout).toContain('.mcp.json starts the isdlc MCP server');
  });

  it('reports running loops, and an unreadable loop.db without touching it', () => {
    const dir = initedProject();
    expect(cli(['loop', 'start', '--dir', dir, '--rule', 'npm test', 'Fix the build']).status).toBe(0);
    expect(cli(['doctor', dir]).stdout).toContain('1 running, 1 not yet claimed by a session');
    rmSync(join(dir, '.isdlc/loop.db-wal'), { force: true });
    rmSync(join(dir, '.isdlc/loop.db-shm'), { force: true });
    writeFile(join(dir, '.isdlc/loop.db'), 'scribbled over');
    const run = cli(['doctor', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/iteration loops: .*loop\.db cannot be read: file is not a database/);
    expect(readFileSync(join(dir, '.isdlc/loop.db'), 'utf8')).toBe('scribbled over');
  });

  it('fails, with a fix, when a registration is missing', () => {
    const dir = initedProject();
    const settings = readJson<{ hooks: Record<string, unknown> }>(join(dir, '.claude/settings.json'));
    delete settings.hooks['Stop'];
    writeJson(join(dir, '.claude/settings.json'), settings);
    const run = cli(['doctor', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('no isdlc hook registered for Stop');
    expect(run.stdout).toContain(`fix: run \`isdlc init ${dir}\``);
  });

  it('fails when the installed hook is missing or does not run', () => {
    const dir = initedProject();
    writeFile(join(dir, '.isdlc/bin/hook-tool-call.cjs'), 'throw new Error("broken build")');
    const broken = cli(['doctor', dir]);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('installed guards could not be loaded');
    // The executable stands in for the broken bundle, and its answer says so.
    expect(broken.stdout).toContain('PreToolUse [Agent|Task]: the registered command answers, but says isdlc is broken');
    expect(broken.stdout).toContain('hook-tool-call.cjs');
    rmSync(join(dir, '.isdlc/bin/isdlc.cjs'));
    expect(cli(['doctor', dir]).stdout).toContain('does not exist');
  });

  it('fails when project config files disagree, naming the problem', () => {
    const dir = initedProject();
    writeJson(join(dir, '.isdlc/config/workflows.json'), { workflows: { feature: { phases: ['01-requirements', '05-implementation'] } } });
    const run = cli(['doctor', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('workflow feature names unknown phase 05-implementation');
  });

  it('fails on a state file that does not parse, without touching it', () => {
    const dir = initedProject();
    writeFile(join(dir, '.isdlc/state.json'), '{ broken');
    const run = cli(['doctor', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('does not parse');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe('{ broken');
  });

  it('says how to start in a directory without isdlc', () => {
    const dir = tempDir();
    const run = cli(['doctor', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`run \`isdlc init ${dir}\``);
  });

  it('reports as JSON', () => {
    // Everything holds: a Claude Code whose version doctor can find, in a folder it trusts.
    const dir = tempDir();
    writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
    const claude = withClaude('2.1.332');
    expect(cli(['init', dir], { env: claude }).status).toBe(0);
    const report = JSON.parse(cli(['doctor', dir, '--json'], { env: { ...claude, ...trustedHome(dir) } }).stdout) as {
      ok: boolean;
      findings: { severity: string }[];
    };
    // But for the mutation score 16-quality-loop wants, which needs Stryker installed: a step doctor names.
    expect(report.findings.filter((finding) => finding.severity !== 'ok')).toEqual([
      expect.objectContaining({ what: expect.stringContaining('need a mutation score'), fix: 'npm install --save-dev @stryker-mutator/core' }),
    ]);
    expect(report.ok).toBe(true);
  });
});

describe('isdlc workflow start and status', () => {
  it('starts a workflow with every phase tracker agreeing on the first phase', () => {
    const dir = initedProject();
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'start');
    const run = cli(['workflow', 'start', 'fix', '--description', 'Cart total is wrong', '--branch', 'fix/cart', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    const workflow = state['active_workflow'];
    expect(workflow.phases).toEqual(['01-requirements', '02-tracing', '05-test-strategy', '06-implementation', '16-quality-loop', '08-code-review']);
    expect(workflow).toMatchObject({
      type: 'fix',
      current_phase: '01-requirements',
      current_phase_index: 0,
      artifact_folder: 'BUG-0001-cart-total-is-wrong',
      git_branch: { name: 'fix/cart', status: 'active' },
    });
    expect(workflow.phase_status).toEqual({
      '01-requirements': 'in_progress',
      '02-tracing': 'pending',
      '05-test-strategy': 'pending',
      '06-implementation': 'pending',
      '16-quality-loop': 'pending',
      '08-code-review': 'pending',
    });
    expect(state['phases']['01-requirements']).toMatchObject({ status: 'in_progress', completed: null, gate_passed: null, artifacts: [] });
    expect(state['phases']['02-tracing']).toEqual({ status: 'pending', started: null, completed: null, gate_passed: null, artifacts: [] });
    expect(state).toMatchObject({ current_phase: '01-requirements', active_agent: 'requirements-analyst', state_version: 2, counters: { next_bug_id: 2 } });
  });

  it('a command that has to set a jammed lock aside does its work and says so on stderr, in one line', () => {
    const dir = initedProject();
    const lockFile = join(dir, '.isdlc/state.json.lock');
    writeFile(lockFile, JSON.stringify({ pid: 1, host: 'elsewhere', nonce: 'jam', at: Date.now() + 86_400_000 }));
    const run = cli(['workflow', 'start', 'feature', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(readJson<Record<string, any>>(join(dir, '.isdlc/state.json'))['active_workflow']).toMatchObject({ type: 'feature' });
    const notices = run.stderr.split('\n').filter((line) => line.includes('set aside the lock'));
    expect(notices).toEqual([`isdlc: set aside the lock ${lockFile} (dated in the future; it named pid 1 on elsewhere) and went on`]);
    const next = cli(['status', '--dir', dir]);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('set aside');
  });

  it('refuses a second workflow, an unknown type and an artifact folder that is a path', () => {
    const dir = initedProject();
    expect(cli(['workflow', 'start', 'feature', '--dir', dir]).status).toBe(0);
    const second = cli(['workflow', 'start', 'fix', '--dir', dir]);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('already active');
    const unknown = cli(['workflow', 'start', 'launch', '--dir', initedProject()]);
    expect(unknown.stderr).toContain('the types are: feature, fix, test-run, test-generate, upgrade');
    const escape = cli(['workflow', 'start', 'feature', '--artifact-folder', '../../etc', '--dir', initedProject()]);
    expect(escape.status).toBe(1);
    expect(escape.stderr).toContain('plain folder name');
  });

  it('status shows the workflow, the current phase and its gate checks with their counters', () => {
    const dir = initedProject();
    cli(['workflow', 'start', 'feature', '--description', 'CSV export', '--dir', dir]);
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    state['active_workflow'].current_phase = '06-implementation';
    state['active_workflow'].current_phase_index = 6;
    state['active_workflow'].phase_status['06-implementation'] = 'in_progress';
    state['phases']['06-implementation'].status = 'in_progress';
    state['phases']['06-implementation'].iteration_requirements = {
      test_iteration: { current_iteration: 2, max_iterations: 10, last_test_result: 'failed', last_test_command: 'npm test' },
    };
    writeJson(join(dir, '.isdlc/state.json'), state);
    const run = cli(['status', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Workflow: feature "CSV export"');
    expect(run.stdout).toContain('Current phase: 06-implementation (7 of 9)');
    expect(run.stdout).toContain('✗ test_iteration: tests failing (iteration 2/10, `npm test`)');
    expect(run.stdout).toContain('Article II: Test-First Development');
    expect(run.stdout).toContain('Gate of 06-implementation: closed');
    const report = JSON.parse(cli(['status', '--json', '--dir', dir]).stdout);
    expect(report.gate.phase).toBe('06-implementation');
    expect(report.gate.open).toBe(false);
    expect(report.gate.checks.map((check: { requirement: string }) => check.requirement)).toEqual([
      'test_iteration',
      'verified_test_run',
      'constitutional_validation',
      'agent_delegation',
    ]);
    // init found no test command in this empty project: the gate cannot run the tests, and says who fixes that.
    expect(run.stdout).toContain('✗ verified_test_run: the gate runs the tests itself, but no test command is configured');
  });

  it('status shows phase timings, retries, the review a supervised workflow waits for, open escalations and the next step', () => {
    const dir = initedProject();
    cli(['workflow', 'start', 'fix', '--supervised', '--dir', dir]);
    cli(['phase', 'activate', '--dir', dir]);
    cli(['phase', 'activate', '--dir', dir]);
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    state['phases']['01-requirements'].timing.started_at = new Date(Date.now() - 42 * 60_000).toISOString();
    state['pending_escalations'] = [
      { type: 'gate_blocked', hook: 'gate-blocker', phase: '01-requirements', detail: 'agent_delegation', timestamp: new Date().toISOString() },
    ];
    writeJson(join(dir, '.isdlc/state.json'), state);
    const running = cli(['status', '--dir', dir]).stdout;
    expect(running).toMatch(/▶ 01-requirements\s+in_progress\s+requirements-analyst\s+started 42 min ago, 1 retry/);
    expect(running).toContain('Open escalations (1; `isdlc escalations --clear` empties the queue):');
    expect(running).toContain('! gate-blocker (gate_blocked, 01-requirements): agent_delegation');
    expect(running).toContain('Next: meet the gate of 01-requirements (above), then `isdlc phase complete`');

    expect(cli(['phase', 'skip', '--reason', 'agreed on the phone', '--dir', dir]).status).toBe(0);
    const waiting = cli(['status', '--dir', dir]).stdout;
    expect(waiting).toContain('Current phase: 01-requirements (1 of 6, completed)');
    expect(waiting).toMatch(/✓ 01-requirements\s+completed\s+requirements-analyst\s+skipped; took 42(\.\d)? min, 1 retry/);
    expect(waiting).toContain("Review: 01-requirements is waiting for a person's review");
    expect(waiting).not.toContain('Gate of');
    expect(waiting).not.toContain('Open escalations');
    const report = JSON.parse(cli(['status', '--json', '--dir', dir]).stdout);
    expect(report.workflow.phases[0]).toMatchObject({
      key: '01-requirements',
      status: 'completed',
      retries: 1,
      wallClockMinutes: expect.closeTo(42, 0),
      skipped: true,
      completedAt: expect.any(String),
    });
    expect(report.workflow.review).toEqual({ phase: '01-requirements', status: 'awaiting' });
    expect(report.nextStep).toContain('isdlc phase review continue');
    cli(['phase', 'review', 'continue', '--dir', dir]);
    expect(cli(['status', '--dir', dir]).stdout).toContain('Next: `isdlc phase activate` starts 02-tracing, then delegate to tracing-orchestrator');
  });

  it('status finds the project from a subdirectory, and says when there is none', () => {
    const dir = initedProject();
    writeFile(join(dir, 'src/app/index.ts'), '');
    expect(cli(['status'], { cwd: join(dir, 'src/app') }).stdout).toContain('No active workflow');
    const none = cli(['status'], { cwd: tempDir() });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('not inside an isdlc project');
  });
});

describe('isdlc replay', () => {
  it('prints each decision of the bundled demo session with its reason', () => {
    const dir = initedProject();
    cli(['workflow', 'start', 'feature', '--description', 'CSV export', '--dir', dir]);
    const run = cli(['replay', join(REPO, 'demo/feature-session.jsonl'), '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/→ DENY by phase-sequence-guard/);
    expect(run.stdout).toMatch(/→ ALLOW/);
    expect(run.stdout).toContain('out-of-order phase delegation');
    expect(run.stdout).toMatch(/→ DENY by state-write-validator/);
    const steps = JSON.parse(cli(['replay', join(REPO, 'demo/feature-session.jsonl'), '--dir', dir, '--json']).stdout) as { decision: string }[];
    expect(steps.map((step) => step.decision)).toEqual(['allow', 'allow', 'deny', 'allow', 'allow', 'allow', 'deny', 'allow']);
    // The session's attempt to mark the phase done in state.json never reached the file.
    expect(readJson<Record<string, any>>(join(dir, '.isdlc/state.json'))['active_workflow'].phase_status['00-quick-scan']).toBe('in_progress');
  });

  it('shows a held Stop as BLOCK, the way the wire and the activity log say it', () => {
    const dir = initedProject();
    const session = JSON.parse(readFileSync(join(REPO, 'test/fixtures/payloads/stop.json'), 'utf8')) as Record<string, unknown>;
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    state['pending_delegation'] = {
      skill: 'isdlc',
      required_agent: 'sdlc-orchestrator',
      invoked_at: new Date().toISOString(),
      args: '',
      session_id: session['session_id'],
      reminders: 0,
    };
    writeJson(join(dir, '.isdlc/state.json'), state);
    const file = join(tempDir(), 'session.jsonl');
    writeFile(file, `${JSON.stringify(session)}\n`);
    const run = cli(['replay', file, '--dir', dir]);
    expect(run.stdout).toMatch(/→ BLOCK by delegation-gate/);
    expect(run.stdout).toContain('1 events replayed: 0 allowed, 0 denied, 1 held (blocked).');
    expect(JSON.parse(cli(['replay', file, '--dir', dir, '--json']).stdout)[0].decision).toBe('block');
  });

  it('skips lines that are not JSON, saying so', () => {
    const dir = initedProject();
    const file = join(tempDir(), 'session.jsonl');
    writeFile(file, 'not json\n{"hook_event_name":"Stop","stop_hook_active":false}\n');
    const run = cli(['replay', file, '--dir', dir]);
    expect(run.stdout).toContain('#1 ?');
    expect(run.stdout).toContain('not JSON');
    expect(run.stdout).toContain('#2 Stop');
  });
});

describe('isdlc config', () => {
  it('lists where each file comes from and shows the one in use', () => {
    const dir = initedProject();
    writeJson(join(dir, '.isdlc/config/artifact-paths.json'), { version: 'mine', phases: {} });
    const list = cli(['config', '--dir', dir]).stdout;
    expect(list).toMatch(/iteration-requirements\s+bundled/);
    expect(list).toContain(join(dir, '.isdlc/config/artifact-paths.json'));
    expect(JSON.parse(cli(['config', 'show', 'artifact-paths', '--dir', dir]).stdout).version).toBe('mine');
    expect(JSON.parse(cli(['config', 'show', 'artifact-paths', '--bundled', '--dir', dir]).stdout).version).toBe('1.0.0');
    expect(cli(['config', 'show', 'nope', '--dir', dir]).stderr).toContain('unknown config');
  });
});

describe('help and errors', () => {
  it('--help lists the commands; an unknown command says so', () => {
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    for (const command of ['init', 'uninstall', 'doctor', 'status', 'workflow', 'replay', 'config', 'hook']) expect(help.stdout).toContain(command);
    const wrong = cli(['frobnicate']);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain("unknown command 'frobnicate'");
  });

  it('prints its version', () => {
    expect(cli(['--version']).stdout.trim()).toBe(readJson(join(REPO, 'package.json'))['version']);
  });
});

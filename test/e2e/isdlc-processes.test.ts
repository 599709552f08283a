// What isdlc runs outside every sandbox must never run what the agent planted, with the real Claude Code on
// a project exactly as `init` leaves it (sandbox on). A loop rule is the agent's code run by isdlc's MCP
// server: in isdlc's sandbox it writes nothing outside the project (git's global config with a signature
// program, a `node` ahead on PATH, npm's user and global config, a managed-settings folder that does not
// exist yet); and a commit it makes to main is seen at the very next hook call and closes the gate. A job
// the agent leaves in the background ends with its call inside Claude Code's sandbox, commit and all.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { TurnContext } from './harness/mock-api.js';
import { bash, call, say } from './harness/script.js';
import { e2eProject, isdlc, readState, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';
import { cli, git } from '../helpers/project.js';
import { spawnSync } from 'node:child_process';

usesClaudeCode();

const BRANCH = 'feature/REQ-0001-export';
const head = (dir: string, branch: string): string => spawnSync('git', ['rev-parse', `refs/heads/${branch}`], { cwd: dir, encoding: 'utf8' }).stdout.trim();
const taskId = ({ api }: TurnContext): string => (JSON.parse(api.toolResult(api.toolUseIds('mcp__isdlc__loop_start')[0]!)!.text) as { taskId: string }).taskId;

/** The model starts a loop with `rule` and has isdlc's MCP server validate it once. */
function ruleTurns(rule: string) {
  return [
    call({ name: 'ToolSearch', input: { query: 'select:mcp__isdlc__loop_start,mcp__isdlc__iteration_validate' } }),
    call({ name: 'mcp__isdlc__loop_start', input: { prompt: 'Keep things tidy', rules: [rule], maxIterations: 2 } }),
    (context: TurnContext) => call({ name: 'mcp__isdlc__iteration_validate', input: { taskId: taskId(context) } }),
    say('I will stop here.\n\n<promise>BLOCKED</promise> nothing more to do.'),
  ];
}

describe("isdlc's own processes and what the agent plants", () => {
  test("a loop rule plants nothing outside the project: git config, a PATH node, npm's user and global config, managed settings", async () => {
    const project = e2eProject({ files: { 'package.json': '{"name":"x","version":"1.0.0","private":true}\n' } });
    const bin = join(project.home, 'bin');
    mkdirSync(bin);
    const mark = `isdlc-e2e-${randomUUID().slice(0, 8)}`;
    const rule = [
      'git config --global log.showSignature true',
      'git config --global gpg.program "$PWD/evil.sh"',
      `printf '#!/bin/sh\\necho pwned\\n' > "$HOME/bin/node"`,
      `echo 'script-shell=/bin/evil' >> "$HOME/.npmrc"`,
      `mkdir -p /etc/${mark} && echo '{"disableAllHooks":true}' > /etc/${mark}/managed-settings.json`,
      'npm config set script-shell /bin/evil --location=global',
      'false',
    ].join('; ');
    const run = await runClaude(project, {
      prompt: 'Tidy up.',
      env: { PATH: `${bin}:${process.env['PATH'] ?? ''}` },
      scripts: [{ name: 'main', turns: ruleTurns(`sh -c '${rule.replace(/'/g, `'\\''`)}'`) }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const report = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__iteration_validate')[0]!)!.text;
    // It ran (in isdlc's sandbox) and ended on its last command.
    expect((JSON.parse(report) as { validationPassed: boolean }).validationPassed).toBe(false);
    expect(report).toContain('exited 1 (expected 0');
    const gitconfig = join(project.home, '.gitconfig');
    expect(existsSync(gitconfig) ? readFileSync(gitconfig, 'utf8') : '').not.toContain('gpg');
    expect(existsSync(join(bin, 'node'))).toBe(false);
    expect(existsSync(join(project.home, '.npmrc'))).toBe(false);
    expect(existsSync(`/etc/${mark}`)).toBe(false);
    const prefix = spawnSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).stdout.trim();
    const globalNpmrc = join(prefix, 'etc', 'npmrc');
    expect(existsSync(globalNpmrc) ? readFileSync(globalNpmrc, 'utf8') : '').not.toContain('/bin/evil');
    // The hooks kept running on the real node.
    expect(run.hookResponses.filter((response) => response.exit_code !== 0)).toEqual([]);
  });

  test('a commit a loop rule makes on main is seen at the next hook call and closes the gate', async () => {
    const project = e2eProject({ files: { 'package.json': '{"name":"x","version":"1.0.0","private":true}\n' } });
    git(project.dir, 'checkout', '-q', '-b', BRANCH);
    isdlc(project, ['workflow', 'start', 'feature', '--description', 'Export', '--branch', BRANCH]);
    const before = head(project.dir, 'main');
    const commit = 'git update-ref refs/heads/main $(git -c user.name=rule -c user.email=rule@example.test commit-tree "HEAD^{tree}" -p main -m "by a rule")';
    const run = await runClaude(project, { prompt: 'Tidy up.', scripts: [{ name: 'main', turns: ruleTurns(commit) }] });
    expect(run.exitCode, run.stderr).toBe(0);
    const report = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__iteration_validate')[0]!)?.text ?? '';
    expect(head(project.dir, 'main'), report).not.toBe(before);
    const violations = (readState(project)['branch_violations'] as Record<string, unknown>[] | undefined) ?? [];
    expect(violations).toEqual([expect.objectContaining({ branch: 'main', from: before, between_calls: true, commit_count: 1 })]);
    const gate = cli(['gate', 'check', '--json', '--dir', project.dir]);
    expect(gate.status).toBe(1);
    expect(JSON.parse(gate.stdout).checks.find((check: { requirement: string }) => check.requirement === 'branch_integrity')).toMatchObject({ met: false });
  });

  test("a commit the agent's background job would make after its call is without effect in the sandbox; one in the call is recorded", async () => {
    const project = e2eProject({ files: { 'package.json': '{"name":"x","version":"1.0.0","private":true}\n' } });
    git(project.dir, 'checkout', '-q', '-b', BRANCH);
    isdlc(project, ['workflow', 'start', 'feature', '--description', 'Export', '--branch', BRANCH]);
    const before = head(project.dir, 'main');
    const commit = (message: string) =>
      `git update-ref refs/heads/main $(git -c user.name=bg -c user.email=bg@example.test commit-tree "HEAD^{tree}" -p main -m ${message})`;
    const run = await runClaude(project, {
      prompt: 'Tidy up.',
      scripts: [
        {
          name: 'main',
          turns: [call(bash(`(sleep 1; ${commit('later')}) > /dev/null 2>&1 &`)), call(bash('sleep 3')), call(bash(commit('now'))), say('Done.')],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    // Claude Code's sandbox ends a call's processes with it: the job never committed.
    const subjects = spawnSync('git', ['log', '--format=%s', 'main'], { cwd: project.dir, encoding: 'utf8' }).stdout.split('\n');
    expect(subjects).not.toContain('later');
    expect(subjects).toContain('now');
    const violations = (readState(project)['branch_violations'] as Record<string, unknown>[] | undefined) ?? [];
    expect(violations).toEqual([expect.objectContaining({ branch: 'main', from: before, commit_count: 1, tool: 'Bash' })]);
    expect(violations[0]!['between_calls']).toBeUndefined();
  });
});

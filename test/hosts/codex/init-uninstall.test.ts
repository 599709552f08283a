// `isdlc init --host codex` through the built CLI, in real git repositories: what it writes into Codex's
// files beside the person's, the hook answering Codex's payloads, doctor's account of trust and of hooks that
// never ran, and uninstall giving every byte back.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { cli, cliProcess, readJson, tempDir, writeFile } from '../../helpers/project.js';

const HOOKS = '.codex/hooks.json';
const CONFIG = '.codex/config.toml';
const THEIR_CONFIG = 'model = "gpt-5.5"\n\n[tui]\nnotifications = true\n';
const THEIR_HOOKS = '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./lint.sh"}]}]}}';

function git(dir: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

function codexProject(withTheirs = true): string {
  const dir = tempDir('isdlc-codex-');
  writeFile(join(dir, 'package.json'), '{"name":"x","scripts":{"test":"node --test"}}\n');
  if (withTheirs) {
    writeFile(join(dir, CONFIG), THEIR_CONFIG);
    writeFile(join(dir, HOOKS), THEIR_HOOKS);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'mine');
  return dir;
}

const init = (dir: string, ...args: string[]) => cli(['init', dir, '--host', 'codex', '--codex-version', '0.171.0', ...args]);
const hook = (dir: string, payload: Record<string, unknown>) =>
  cliProcess(['hook', '--host', 'codex'], { cwd: dir, input: JSON.stringify({ session_id: 's', turn_id: 't', cwd: dir, model: 'gpt-5.5', ...payload }) });
const codexHome = (trusted: string[]) => {
  const home = tempDir('isdlc-codex-home-');
  writeFile(join(home, 'config.toml'), trusted.map((dir) => `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`).join('\n'));
  return home;
};

describe('isdlc init --host codex', () => {
  it("merges isdlc's hooks, profile and MCP server beside the person's, and uninstall gives back every byte", () => {
    const dir = codexProject();
    const run = init(dir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('registered for Codex 0.171.0');
    const config = readFileSync(join(dir, CONFIG), 'utf8');
    expect(config.split('\n').find((line) => line.trim() && !line.startsWith('#'))).toBe('default_permissions = "isdlc"');
    expect(config).toContain(THEIR_CONFIG.trim());
    expect(config).toContain('".isdlc" = "read"');
    // The profile is worked out once the constitution is in place: the docs folder around it stays the agent's.
    expect(config).toContain('"docs/isdlc/constitution.md" = "read"');
    expect(config).not.toContain('"docs" = "read"');
    expect(config).toContain('[mcp_servers.isdlc]');
    const hooks = readJson<{ hooks: Record<string, { hooks: { command: string }[] }[]> }>(join(dir, HOOKS));
    expect(hooks.hooks['PreToolUse']![0]!.hooks[0]!.command).toBe('./lint.sh');
    expect(Object.keys(hooks.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    expect(existsSync(join(dir, '.claude/settings.json')), 'Codex only: no Claude Code files').toBe(false);

    const second = init(dir);
    expect(second.stdout).toContain('nothing to change');

    const removed = cli(['uninstall', dir, '--purge']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(git(dir, 'status', '--porcelain', '--ignored')).toBe('');
  });

  it("refuses to replace a default_permissions of the person's, and changes nothing", () => {
    const dir = codexProject(false);
    writeFile(join(dir, CONFIG), 'default_permissions = "mine"\n');
    const run = init(dir);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('default_permissions = "mine"');
    expect(existsSync(join(dir, '.isdlc'))).toBe(false);
    expect(readFileSync(join(dir, CONFIG), 'utf8')).toBe('default_permissions = "mine"\n');
  });

  it('both hosts side by side, and a later plain init keeps both', () => {
    const dir = codexProject(false);
    expect(cli(['init', dir, '--host', 'claude-code,codex', '--codex-version', '0.171.0']).status).toBe(0);
    expect(existsSync(join(dir, '.claude/settings.json'))).toBe(true);
    expect(existsSync(join(dir, HOOKS))).toBe(true);
    const again = cli(['init', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(readJson(join(dir, '.isdlc/install.json'))).toMatchObject({ codex: { version: '0.171.0' }, claude_code: {} });
    expect(cli(['init', dir, '--host', 'nope']).stderr).toContain('--host takes claude-code, codex');
  });
});

describe("Codex's instructions: isdlc's section of AGENTS.md and the phase agents' roles", () => {
  // No newline at the end, and a blank line first: what uninstall gives back is these bytes.
  const THEIRS = '\n# Our rules\r\n\nUse tabs.';

  it("puts isdlc's section before the person's text and one role per agent; uninstall gives back the bytes and takes the roles", () => {
    const dir = codexProject(false);
    writeFile(join(dir, 'AGENTS.md'), THEIRS);
    expect(init(dir).status).toBe(0);
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith('<!-- >>> isdlc')).toBe(true);
    expect(agents.endsWith(THEIRS)).toBe(true);
    expect(agents).toContain("`spawn_agent` (namespace `multi_agent_v1`) with `agent_type` the phase's agent");
    expect(agents).toContain('- `fix` (Bug Fix): 01-requirements (requirements-analyst) → 02-tracing (tracing-orchestrator)');
    expect(agents).toContain('`isdlc escalation approve`');

    const roles = readdirSync(join(dir, '.codex/agents')).sort();
    expect(roles).toContain('software-developer.toml');
    expect(roles).toContain('constitution-reviewer.toml');
    for (const file of roles) {
      const role = parse(readFileSync(join(dir, '.codex/agents', file), 'utf8')) as Record<string, string>;
      expect(role['name']).toBe(file.replace(/\.toml$/, ''));
      expect(role['developer_instructions']).toContain('mcp__isdlc');
    }
    const developer = parse(readFileSync(join(dir, '.codex/agents/software-developer.toml'), 'utf8')) as Record<string, string>;
    expect(developer['developer_instructions']).toContain('Change files with apply_patch');
    expect(developer['developer_instructions']).toContain('`mcp__isdlc__loop_start` with agent "software-developer"');

    expect(init(dir).stdout).toContain('nothing to change');
    const removed = cli(['uninstall', dir]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe(THEIRS);
    expect(existsSync(join(dir, '.codex'))).toBe(false);
  });

  it('a role the person changed is theirs and stays; an AGENTS.md isdlc created goes', () => {
    const dir = codexProject(false);
    expect(init(dir).status).toBe(0);
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(true);
    writeFile(join(dir, '.codex/agents/qa-engineer.toml'), 'name = "qa-engineer"\ndescription = "mine"\ndeveloper_instructions = "Review."\n');
    cli(['changes', 'accept', '--dir', dir]);
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);
    expect(readdirSync(join(dir, '.codex/agents'))).toEqual(['qa-engineer.toml']);
  });

  it("the section follows the project's config: a workflow the person adds is listed at the next init", () => {
    const dir = codexProject(false);
    expect(init(dir).status).toBe(0);
    const workflow = JSON.stringify({ label: 'Build', phases: ['06-implementation'] });
    const set = cli(['config', 'set', 'workflows', 'workflows.build', workflow, '--dir', dir]);
    expect(set.status, set.stderr).toBe(0);
    expect(init(dir).stdout).toMatch(/updated +AGENTS\.md/);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('- `build` (Build): 06-implementation (software-developer)');
  });
});

describe("the hook answers Codex's payloads", () => {
  it('a patch that would delete the state is denied, with a reason; an ordinary patch passes', () => {
    const dir = codexProject(false);
    init(dir);
    const patch = (file: string) => `*** Begin Patch\n*** Delete File: ${file}\n*** End Patch\n`;
    const denied = hook(dir, { hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch('.isdlc/state.json') } });
    expect(denied.status).toBe(0);
    const answer = JSON.parse(denied.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('not a patch');
    const fine = hook(dir, { hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch('src/old.ts') } });
    expect(fine.stdout).not.toContain('deny');
  });
});

describe('isdlc doctor for Codex', () => {
  it('says an untrusted project and hooks that never ran, each with the step; trust and a session start turn both ok', () => {
    const dir = codexProject(false);
    init(dir);
    const untrusted = cli(['doctor', dir, '--json'], { env: { CODEX_HOME: codexHome([]) } });
    const findings = (JSON.parse(untrusted.stdout) as { findings: { severity: string; what: string; fix?: string }[] }).findings;
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining('Codex does not trust this project'),
        fix: expect.stringContaining('trust it'),
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: 'warn',
        what: expect.stringContaining("isdlc's hooks have not run under Codex yet"),
        fix: expect.stringContaining('/hooks'),
      }),
    );
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'ok', what: expect.stringContaining('read-only to the agent') }));

    expect(hook(dir, { hook_event_name: 'SessionStart', source: 'startup' }).status).toBe(0);
    const trusted = cli(['doctor', dir, '--json'], { env: { CODEX_HOME: codexHome([dir]) } });
    const after = (JSON.parse(trusted.stdout) as { findings: { severity: string; what: string }[] }).findings;
    expect(after).toContainEqual(expect.objectContaining({ severity: 'ok', what: 'Codex trusts this project' }));
    expect(after).toContainEqual(expect.objectContaining({ severity: 'ok', what: expect.stringContaining("isdlc's hooks ran under Codex") }));
  });
});

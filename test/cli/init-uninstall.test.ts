// `isdlc init` and `isdlc uninstall` as a user runs them, on real directories.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withClaude, withoutClaude } from '../helpers/claude-code.js';
import { READ_ONLY_TOOLS } from '../../src/hosts/claude-code/settings.js';
import { cli, readJson, REPO, tempDir, writeFile, writeJson } from '../helpers/project.js';

const USER_SETTINGS = {
  model: 'sonnet',
  permissions: { allow: ['Bash(npm run lint:*)'], deny: ['Read(./secrets/**)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/check-bash.sh', timeout: 5 }] }],
  },
};

/** Every file under `dir` with its content hash and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, name.name);
      if (name.isDirectory()) walk(path);
      else out[relative(dir, path)] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

function userProject(): string {
  const dir = tempDir('isdlc-user-');
  writeJson(join(dir, '.claude/settings.json'), USER_SETTINGS);
  writeFile(join(dir, 'pyproject.toml'), '[project]\nname = "demo"\n');
  return dir;
}

describe('isdlc init', () => {
  it("keeps the user's hook and permission rule, and adds ours", () => {
    const dir = userProject();
    const run = cli(['init', dir]);
    expect(run.status, run.stderr).toBe(0);
    const settings = readJson<typeof USER_SETTINGS & { hooks: Record<string, unknown[]> }>(join(dir, '.claude/settings.json'));
    expect(settings.model).toBe('sonnet');
    // Only isdlc's tools that read are pre-approved; one that changes the workflow asks the person.
    expect(settings.permissions.allow).toEqual(['Bash(npm run lint:*)', ...READ_ONLY_TOOLS.map((tool) => `mcp__isdlc__${tool}`)]);
    // The user's rule first, then isdlc's, which keep Claude Code's file tools off isdlc's files.
    expect(settings.permissions.deny[0]).toBe('Read(./secrets/**)');
    expect(settings.permissions.deny).toContain('Edit(/.isdlc/**)');
    expect(settings.hooks.PreToolUse[0]).toEqual(USER_SETTINGS.hooks.PreToolUse[0]);
    expect(JSON.stringify(settings.hooks)).toContain('.isdlc/bin/isdlc.cjs');
    for (const file of [
      '.isdlc/bin/isdlc.cjs',
      '.isdlc/bin/hook-tool-call.cjs',
      '.isdlc/bin/hook-tool-result.cjs',
      '.isdlc/bin/hook-turn.cjs',
      '.isdlc/state.json',
      '.isdlc/install.json',
      'docs/isdlc/constitution.md',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const state = readJson(join(dir, '.isdlc/state.json'));
    expect(state).toMatchObject({ state_version: 1, active_workflow: null, phases: {}, skill_usage_log: [], pending_escalations: [] });
  });

  it("says when the original iSDLC framework's hooks are still registered, keeps them (they are the person's), and doctor says it too", () => {
    const dir = userProject();
    const original = {
      hooks: {
        PreToolUse: [
          { matcher: 'Task', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/pre-task-dispatcher.cjs', timeout: 10 }] },
        ],
      },
    };
    writeJson(join(dir, '.claude/settings.json'), {
      ...USER_SETTINGS,
      hooks: { ...USER_SETTINGS.hooks, ...original.hooks, PreToolUse: [...USER_SETTINGS.hooks.PreToolUse, ...original.hooks.PreToolUse] },
    });
    const run = cli(['init', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/still registers 1 hook\(s\) of the JavaScript iSDLC framework \(\.claude\/hooks\/pre-task-dispatcher\.cjs\)/);
    expect(JSON.stringify(readJson(join(dir, '.claude/settings.json')))).toContain('pre-task-dispatcher.cjs');
    const doctor = cli(['doctor', dir]);
    expect(doctor.stdout + doctor.stderr).toMatch(/JavaScript iSDLC framework/);
    // Without them, neither says a word of it.
    const clean = userProject();
    expect(cli(['init', clean]).stdout).not.toMatch(/JavaScript iSDLC framework/);
  });

  it('changes nothing the second time, not even a modification time', () => {
    const dir = userProject();
    expect(cli(['init', dir]).status).toBe(0);
    const before = snapshot(dir);
    const again = cli(['init', dir, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    const changes = JSON.parse(again.stdout) as { change: string }[];
    expect(changes.every((change) => change.change === 'unchanged' || change.change === 'kept')).toBe(true);
  });

  it('leaves an existing constitution and state alone', () => {
    const dir = userProject();
    writeFile(join(dir, 'docs/isdlc/constitution.md'), '### Article I: Ours\n');
    writeJson(join(dir, '.isdlc/state.json'), { state_version: 41, active_workflow: { type: 'fix' } });
    expect(cli(['init', dir]).status).toBe(0);
    expect(readFileSync(join(dir, 'docs/isdlc/constitution.md'), 'utf8')).toBe('### Article I: Ours\n');
    expect(readJson(join(dir, '.isdlc/state.json'))).toEqual({ state_version: 41, active_workflow: { type: 'fix' } });
  });

  it.each([
    ['.claude/settings.json', '{ "hooks": { '],
    ['.mcp.json', '{ "mcpServers": '],
  ])('refuses a %s that is not valid JSON, and changes nothing', (file, content) => {
    const dir = tempDir();
    writeFile(join(dir, file), content);
    const before = snapshot(dir);
    const run = cli(['init', dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${file} is not valid JSON`);
    expect(snapshot(dir)).toEqual(before);
  });

  it('says so for a directory that does not exist', () => {
    const run = cli(['init', join(tempDir(), 'missing')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('is not a directory');
  });

  it("registers the MCP server in .mcp.json beside the user's servers, and uninstall takes out only ours", () => {
    const dir = userProject();
    const theirs = { mcpServers: { github: { command: 'gh-mcp', args: ['--stdio'] } }, note: 'kept' };
    writeJson(join(dir, '.mcp.json'), theirs);
    expect(cli(['init', dir]).status).toBe(0);
    const merged = readJson<{ mcpServers: Record<string, { command: string; args: string[] }> }>(join(dir, '.mcp.json'));
    expect(merged.mcpServers['github']).toEqual(theirs.mcpServers.github);
    expect(merged.mcpServers['isdlc']).toEqual({ type: 'stdio', command: 'node', args: ['${CLAUDE_PROJECT_DIR:-.}/.isdlc/bin/isdlc.cjs', 'mcp'] });
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readJson(join(dir, '.mcp.json'))).toEqual(theirs);
  });

  it('creates .mcp.json when there is none and removes it again; a server of the same name the user wrote stays', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(true);
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);

    const other = tempDir();
    const theirs = { mcpServers: { isdlc: { command: 'my-own-isdlc' } } };
    writeJson(join(other, '.mcp.json'), theirs);
    const run = cli(['init', other, '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toContainEqual(expect.objectContaining({ path: '.mcp.json', change: 'kept' }));
    expect(readJson(join(other, '.mcp.json'))).toEqual(theirs);
    expect(cli(['uninstall', other]).status).toBe(0);
    expect(readJson(join(other, '.mcp.json'))).toEqual(theirs);
  });

  it('brings its own untouched .isdlc/.gitignore up to date, so the loop store stays out of git; an edited one stays', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    const gitignore = join(dir, '.isdlc/.gitignore');
    expect(readFileSync(gitignore, 'utf8')).toMatch(/^loop\.db$/m);
    // As an older isdlc wrote it, recorded as ours.
    const older = 'hook-activity.log\n*.lock\n';
    writeFile(gitignore, older);
    const record = readJson<{ files: Record<string, { sha256: string }> }>(join(dir, '.isdlc/install.json'));
    record.files['.isdlc/.gitignore'] = { sha256: createHash('sha256').update(older).digest('hex') };
    writeJson(join(dir, '.isdlc/install.json'), record);
    expect(cli(['init', dir]).status).toBe(0);
    expect(readFileSync(gitignore, 'utf8')).toMatch(/^bin\/\*\.node$/m);
    writeFile(gitignore, 'mine\n');
    expect(cli(['init', dir]).status).toBe(0);
    expect(readFileSync(gitignore, 'utf8')).toBe('mine\n');
  });

  it('ships no compiled module: nothing in .isdlc/bin/ is tied to one Node version or platform', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    expect(readdirSync(join(dir, '.isdlc/bin')).filter((name) => !/\.cjs$|\.cjs\..*\.cache$/.test(name))).toEqual([]);
    expect(readdirSync(join(REPO, 'dist')).filter((name) => name.endsWith('.node'))).toEqual([]);
  });

  it('warms the hook code cache for every kind of call, unless ISDLC_NO_WARM_CACHE=1 leaves it to the first calls', () => {
    const warmed = tempDir();
    expect(cli(['init', warmed], { env: { ISDLC_NO_WARM_CACHE: '' } }).status).toBe(0);
    const caches = readdirSync(join(warmed, '.isdlc/bin'))
      .filter((name) => name.endsWith('.cache'))
      .map((name) => name.replace(/\.v\d+\.\d+\.\d+-.*$/, ''));
    for (const kind of ['agent', 'edit', 'other', 'shell']) {
      expect(caches).toContain(`hook-tool-call.cjs.${kind}`);
      expect(caches).toContain(`hook-tool-result.cjs.${kind}`);
    }
    expect(caches).toEqual(expect.arrayContaining(['hook-turn.cjs.stop', 'hook-turn.cjs.other', 'tamper.cjs']));
    const cold = tempDir();
    expect(cli(['init', cold]).status).toBe(0);
    expect(readdirSync(join(cold, '.isdlc/bin')).filter((name) => name.endsWith('.cache'))).toEqual([]);
  });

  it('takes out the bin file an older isdlc installed and this one no longer ships, unless it was changed; uninstall takes it out too', () => {
    // An install of the versions before node:sqlite: their SQLite module in .isdlc/bin/, named in the record and the journal.
    const setUp = (content: string): string => {
      const dir = tempDir();
      expect(cli(['init', dir]).status).toBe(0);
      const old = join(dir, '.isdlc/bin/better_sqlite3.node');
      writeFile(old, 'compiled module\n');
      const record = readJson<{ files: Record<string, { sha256: string }> }>(join(dir, '.isdlc/install.json'));
      record.files['.isdlc/bin/better_sqlite3.node'] = { sha256: createHash('sha256').update('compiled module\n').digest('hex') };
      writeJson(join(dir, '.isdlc/install.json'), record);
      expect(cli(['changes', 'accept', '--dir', dir]).status).toBe(0);
      if (content !== 'compiled module\n') {
        writeFile(old, content);
        expect(cli(['changes', 'accept', '--dir', dir]).status).toBe(0);
      }
      return dir;
    };
    const untouched = setUp('compiled module\n');
    const init = cli(['init', untouched, '--json']);
    expect(init.status, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toContainEqual(expect.objectContaining({ path: '.isdlc/bin/better_sqlite3.node', change: 'removed' }));
    expect(existsSync(join(untouched, '.isdlc/bin/better_sqlite3.node'))).toBe(false);
    expect(Object.keys(readJson<{ files: object }>(join(untouched, '.isdlc/install.json')).files)).not.toContain('.isdlc/bin/better_sqlite3.node');
    // Nor does the journal keep a copy of it, and the next hook call finds nothing changed.
    expect(readdirSync(join(untouched, '.isdlc/journal/copies')).filter((name) => name.includes('better_sqlite3'))).toEqual([]);
    const doctor = cli(['doctor', untouched]);
    expect(doctor.stdout).not.toMatch(/better_sqlite3|changed outside/);

    const edited = setUp('my own build\n');
    const again = cli(['init', edited, '--json']);
    expect(JSON.parse(again.stdout)).toContainEqual(expect.objectContaining({ path: '.isdlc/bin/better_sqlite3.node', change: 'kept' }));
    expect(readFileSync(join(edited, '.isdlc/bin/better_sqlite3.node'), 'utf8')).toBe('my own build\n');

    const older = setUp('compiled module\n');
    const uninstall = cli(['uninstall', older, '--json']);
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(existsSync(join(older, '.isdlc/bin'))).toBe(false);
  });

  it('creates the state of each project in a monorepo', () => {
    const dir = tempDir();
    writeJson(join(dir, '.isdlc/monorepo.json'), { default_project: 'api', projects: { api: { path: 'api' }, web: { path: 'web' } } });
    expect(cli(['init', dir]).status).toBe(0);
    expect(existsSync(join(dir, '.isdlc/projects/api/state.json'))).toBe(true);
    expect(existsSync(join(dir, '.isdlc/projects/web/state.json'))).toBe(true);
  });
});

describe('isdlc uninstall', () => {
  it('takes out what an older isdlc allowed (its whole command line, every MCP tool), and init replaces it', () => {
    const dir = userProject();
    expect(cli(['init', dir]).status).toBe(0);
    const file = join(dir, '.claude/settings.json');
    const older = readJson<typeof USER_SETTINGS & { hooks: Record<string, unknown[]> }>(file);
    older.permissions.allow = ['Bash(npm run lint:*)', 'Bash(node .isdlc/bin/isdlc.cjs:*)', 'mcp__isdlc'];
    writeJson(file, older);
    expect(cli(['init', dir]).status).toBe(0);
    expect(readJson<typeof USER_SETTINGS>(file).permissions.allow).toEqual(['Bash(npm run lint:*)', ...READ_ONLY_TOOLS.map((tool) => `mcp__isdlc__${tool}`)]);
    writeJson(file, older);
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readJson(file)).toEqual(USER_SETTINGS);
  });

  it("leaves exactly the user's settings, and keeps state and docs", () => {
    const dir = userProject();
    expect(cli(['init', dir]).status).toBe(0);
    const run = cli(['uninstall', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(readJson(join(dir, '.claude/settings.json'))).toEqual(USER_SETTINGS);
    expect(existsSync(join(dir, '.isdlc/bin'))).toBe(false);
    expect(existsSync(join(dir, '.isdlc/state.json'))).toBe(true);
    expect(existsSync(join(dir, 'docs/isdlc/constitution.md'))).toBe(true);
    expect(run.stdout).toContain('--purge');
  });

  it('removes a settings file it created, with --purge everything of isdlc, but never an edited constitution', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    writeFile(join(dir, 'docs/isdlc/constitution.md'), '### Article I: Edited by the team\n');
    const run = cli(['uninstall', dir, '--purge']);
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, '.isdlc'))).toBe(false);
    expect(readFileSync(join(dir, 'docs/isdlc/constitution.md'), 'utf8')).toContain('Edited by the team');
  });

  it('never deletes outside what it installed, whatever paths a changed install record names', () => {
    const dir = tempDir();
    expect(cli(['init', dir, '--no-sandbox']).status).toBe(0);
    writeFile(join(dir, 'src/app.ts'), 'precious\n');
    const sha = createHash('sha256').update('precious\n').digest('hex');
    const record = readJson<{ files: Record<string, { sha256: string }> }>(join(dir, '.isdlc/install.json'));
    for (const rel of [
      '.isdlc/bin/../../src/app.ts',
      '.isdlc/config/schemas/../../../src/app.ts',
      '.claude/agents/../../src/app.ts',
      '/' + join(dir, 'src/app.ts').slice(1),
    ]) {
      record.files[rel] = { sha256: sha };
    }
    writeJson(join(dir, '.isdlc/install.json'), record);
    // The person keeps the record as it now is; neither init nor uninstall then reaches src/app.ts.
    expect(cli(['changes', 'accept', '--dir', dir]).status).toBe(0);
    expect(cli(['init', dir, '--no-sandbox']).status).toBe(0);
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('precious\n');
    writeJson(join(dir, '.isdlc/install.json'), record);
    expect(cli(['changes', 'accept', '--dir', dir]).status).toBe(0);
    const uninstall = cli(['uninstall', dir, '--purge', '--json']);
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).not.toContain('src/app.ts');
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('precious\n');
  });

  it('with --purge removes an untouched constitution and the folders it made', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    expect(cli(['uninstall', dir, '--purge']).status).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the orchestration files', () => {
  it('init installs the /isdlc phase loop and one agent per phase owner, whose frontmatter has only keys Claude Code documents', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    const loop = readFileSync(join(dir, '.claude/commands/isdlc.md'), 'utf8');
    const tools = [
      'workflow_start',
      'phase_activate',
      'delegation_prompt',
      'gate_check',
      'phase_complete',
      'workflow_finalize',
      'escalations_clear',
      'workflow_cancel',
      'phase_review',
    ];
    for (const step of [...tools.map((tool) => `\`mcp__isdlc__${tool}\``), '3c-prime', '3e', 'docs/isdlc/tasks.md']) expect(loop, step).toContain(step);
    // A person's decisions are the user's to run, in their own terminal; nothing tells the agent to run isdlc in its shell.
    expect(loop).toContain('the user runs `isdlc phase skip --reason "..."` in their\n  own terminal');
    expect(loop).toContain('the user runs `isdlc phase review continue` in their own terminal');
    expect(loop).not.toMatch(/node \.isdlc\/bin|`isdlc (?:workflow|phase (?:activate|complete)|gate|delegation-prompt|status|escalations|constitution)/);
    // The delegation step says what to do when the block is missing (fail-open).
    expect(loop).toMatch(/no GATE REQUIREMENTS block[\s\S]*delegate without it/);
    expect(loop).toContain('Never write `.isdlc/` yourself');
    const agents = readdirSync(join(dir, '.claude/agents')).sort();
    expect(agents).toEqual(
      expect.arrayContaining([
        'sdlc-orchestrator.md',
        'requirements-analyst.md',
        'software-developer.md',
        'quality-loop-engineer.md',
        'qa-engineer.md',
        'constitution-reviewer.md',
      ]),
    );
    const developer = readFileSync(join(dir, '.claude/agents/software-developer.md'), 'utf8');
    expect(developer).toMatch(/^---\nname: software-developer\ndescription: .*\n---\n/);
    expect(developer).toContain('<promise>COMPLETE</promise>');
    expect(developer).toContain('`mcp__isdlc__loop_start` with agent "software-developer"');
    // Its phase is reviewed independently: the articles are the reviewer's to record, which reads and records only.
    expect(developer).toContain('checked by a reviewer (constitution-reviewer), not by you');
    expect(developer).not.toContain('isdlc.cjs');
    const reviewer = readFileSync(join(dir, '.claude/agents/constitution-reviewer.md'), 'utf8');
    expect(reviewer).toMatch(/^---\nname: constitution-reviewer\n[\s\S]*\ndisallowedTools: Write, Edit, MultiEdit, NotebookEdit, Bash, PowerShell\n---\n/);
    expect(reviewer).toContain('`mcp__isdlc__constitution_record`');
    expect(loop).toContain('delegate that to **constitution-reviewer**');
    // Claude Code warns about frontmatter keys it does not know (an `iteration:` key, say).
    const documented = new Set(['name', 'description', 'tools', 'disallowedTools', 'model', 'permissionMode', 'skills', 'hooks', 'color']);
    for (const file of agents) {
      const front = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(dir, '.claude/agents', file), 'utf8'))![1]!;
      const keys = front
        .split('\n')
        .filter((line) => /^\S/.test(line))
        .map((line) => line.split(':')[0]);
      for (const key of keys) expect(documented.has(key!), `${file}: ${key}`).toBe(true);
    }
    const analyst = readFileSync(join(dir, '.claude/agents/requirements-analyst.md'), 'utf8');
    expect(analyst).not.toContain('iteration:');
    expect(analyst).toContain('docs/requirements/{artifact_folder}/requirements-spec.md');
    expect(readFileSync(join(dir, '.claude/agents/quick-scan-agent.md'), 'utf8')).not.toContain('constitution record');
  });

  it("never overwrites the user's own agent file or one they edited; uninstall removes only untouched ones", () => {
    const dir = tempDir();
    writeFile(join(dir, '.claude/agents/qa-engineer.md'), '---\nname: qa-engineer\n---\nOur own reviewer.\n');
    expect(cli(['init', dir]).status).toBe(0);
    expect(readFileSync(join(dir, '.claude/agents/qa-engineer.md'), 'utf8')).toContain('Our own reviewer.');
    writeFile(join(dir, '.claude/agents/software-developer.md'), 'Edited by the team.\n');
    const again = cli(['init', dir]);
    expect(again.stdout).toMatch(/kept\s+\.claude\/agents\/software-developer\.md/);
    expect(readFileSync(join(dir, '.claude/agents/software-developer.md'), 'utf8')).toBe('Edited by the team.\n');
    const run = cli(['uninstall', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(readdirSync(join(dir, '.claude/agents')).sort()).toEqual(['qa-engineer.md', 'software-developer.md']);
    expect(existsSync(join(dir, '.claude/commands'))).toBe(false);
  });
});

interface HookEntry {
  type: string;
  command: string;
  args?: string[];
}
type SettingsFile = { hooks: Record<string, { matcher?: string; hooks: HookEntry[] }[]>; bashEditDiffEnabled?: unknown } & Record<string, unknown>;

const settingsOf = (dir: string): SettingsFile => readJson<SettingsFile>(join(dir, '.claude/settings.json'));
const ourHooksIn = (settings: SettingsFile): HookEntry[] =>
  Object.values(settings.hooks)
    .flatMap((entries) => entries.flatMap((entry) => entry.hooks))
    .filter((hook) => JSON.stringify(hook).includes('.isdlc/bin/isdlc.cjs'));
const installRecord = (dir: string): Record<string, unknown> => readJson(join(dir, '.isdlc/install.json'));

describe('isdlc init registers what the installed Claude Code runs', () => {
  it('finds the version with `claude --version`: exec form and UserPromptExpansion on 2.1.332, and says so', () => {
    const dir = tempDir();
    const run = cli(['init', dir], { env: withClaude('2.1.332') });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'registered for Claude Code 2.1.332 (found by `claude --version`): exec-form hooks (`node` with arguments, no shell) on 8 events',
    );
    const settings = settingsOf(dir);
    expect(Object.keys(settings.hooks)).toContain('UserPromptExpansion');
    expect(ourHooksIn(settings).every((hook) => hook.command === 'node' && hook.args?.[1] === 'hook')).toBe(true);
    expect(installRecord(dir)['claude_code']).toEqual({ version: '2.1.332', from: 'claude --version', hook_form: 'exec' });
  });

  it.each([
    // version, form, UserPromptExpansion registered
    ['2.1.138', 'shell', true],
    ['2.1.116', 'shell', true],
    ['2.1.114', 'shell', false],
    ['2.1.100', 'shell', false],
  ])('Claude Code %s gets %s-form hooks; UserPromptExpansion: %s', (version, form, upe) => {
    const dir = tempDir();
    const run = cli(['init', dir], { env: withClaude(version) });
    expect(run.status, run.stderr).toBe(0);
    const settings = settingsOf(dir);
    expect(Object.keys(settings.hooks).includes('UserPromptExpansion')).toBe(upe);
    for (const hook of ourHooksIn(settings)) expect(hook).toMatchObject({ command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook' });
    expect(ourHooksIn(settings).some((hook) => hook.args)).toBe(false);
    expect(installRecord(dir)['claude_code']).toEqual({ version, from: 'claude --version', hook_form: form });
    expect(run.stdout).toContain(`registered for Claude Code ${version} (found by \`claude --version\`): shell-form hooks`);
  });

  it('takes --claude-version over what `claude --version` says', () => {
    const dir = tempDir();
    const run = cli(['init', dir, '--claude-version', '2.1.114'], { env: withClaude('2.1.332') });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('registered for Claude Code 2.1.114 (from --claude-version): shell-form hooks');
    expect(installRecord(dir)['claude_code']).toEqual({ version: '2.1.114', from: 'flag', hook_form: 'shell' });
  });

  it('re-registers for the version found now: our UserPromptExpansion goes for an older one (key and all) and comes back for a newer one', () => {
    const dir = userProject();
    expect(cli(['init', dir], { env: withClaude('2.1.332') }).status).toBe(0);
    expect(cli(['init', dir], { env: withClaude('2.1.110') }).status).toBe(0);
    const older = settingsOf(dir);
    expect(Object.keys(older.hooks)).not.toContain('UserPromptExpansion');
    expect(ourHooksIn(older).some((hook) => hook.args)).toBe(false);
    expect(older.hooks['PreToolUse']![0]).toEqual(USER_SETTINGS.hooks.PreToolUse[0]);
    expect(cli(['init', dir], { env: withClaude('2.1.140') }).status).toBe(0);
    const newer = settingsOf(dir);
    expect(Object.keys(newer.hooks)).toContain('UserPromptExpansion');
    expect(ourHooksIn(newer).every((hook) => hook.command === 'node' && hook.args)).toBe(true);
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readJson(join(dir, '.claude/settings.json'))).toEqual(USER_SETTINGS);
  });

  it('changes nothing the second time for the same Claude Code, not even a modification time', () => {
    const dir = userProject();
    const env = withClaude('2.1.114');
    expect(cli(['init', dir], { env }).status).toBe(0);
    const before = snapshot(dir);
    expect(cli(['init', dir], { env }).status).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('registers shell-form hooks on a new Claude Code when asked to', () => {
    const dir = tempDir();
    const run = cli(['init', dir, '--hook-form', 'shell'], { env: withClaude('2.1.332') });
    expect(run.status, run.stderr).toBe(0);
    expect(ourHooksIn(settingsOf(dir)).every((hook) => !hook.args)).toBe(true);
    expect(Object.keys(settingsOf(dir).hooks)).toContain('UserPromptExpansion');
    expect(installRecord(dir)['claude_code']).toMatchObject({ hook_form: 'shell' });
  });

  it('refuses --hook-form exec below 2.1.139 with the reason, and changes nothing', () => {
    const dir = userProject();
    expect(cli(['init', dir], { env: withClaude('2.1.138') }).status).toBe(0);
    const before = snapshot(dir);
    const run = cli(['init', dir, '--hook-form', 'exec'], { env: withClaude('2.1.138') });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      '--hook-form exec needs Claude Code 2.1.139 or newer: Claude Code 2.1.138 (found by `claude --version`) runs `node` without its arguments',
    );
    expect(run.stderr).toContain('isdlc changed nothing');
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a Claude Code below 2.1.100, saying what was found, the minimum and how to upgrade, and changes nothing', () => {
    const dir = userProject();
    const before = snapshot(dir);
    const run = cli(['init', dir], { env: withClaude('2.1.90') });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Claude Code 2.1.90 (found by `claude --version`) is older than 2.1.100, the oldest Claude Code isdlc supports');
    expect(run.stderr).toContain('`claude update` (or `npm i -g @anthropic-ai/claude-code@latest`)');
    expect(run.stderr).toContain('pass `--claude-version X`');
    expect(snapshot(dir)).toEqual(before);
    expect(cli(['init', dir, '--claude-version', '2.1.63'], { env: withClaude('2.1.332') }).status).toBe(1);
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a --claude-version that is not a version', () => {
    const dir = tempDir();
    const run = cli(['init', dir, '--claude-version', 'latest']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--claude-version takes a version like 2.1.332');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('without a claude on PATH registers for the newest Claude Code it knows and says so loudly', () => {
    const dir = tempDir();
    const run = cli(['init', dir], { env: withoutClaude() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('registered for Claude Code 2.1.332 (assumed: no version found): exec-form hooks');
    expect(run.stdout).toContain('! No Claude Code version found (no `claude` command on PATH), so isdlc registered for the newest it knows, 2.1.332');
    expect(run.stdout).toContain(`\`isdlc init ${dir} --claude-version X\``);
    expect(installRecord(dir)['claude_code']).toEqual({ version: '2.1.332', from: 'assumed', hook_form: 'exec' });
    const json = cli(['init', dir, '--json'], { env: withoutClaude() });
    expect(() => JSON.parse(json.stdout) as unknown[]).not.toThrow();
    expect(json.stderr).toContain('No Claude Code version found');
  });

  it("warns when the user's own UserPromptExpansion key will switch off every hook of the file on this Claude Code", () => {
    const dir = tempDir();
    writeJson(join(dir, '.claude/settings.json'), { hooks: { UserPromptExpansion: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] } });
    const run = cli(['init', dir], { env: withClaude('2.1.100') });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('! .claude/settings.json has a "UserPromptExpansion" key: Claude Code 2.1.100 drops every hook in this file, yours included');
    // The user's key is theirs to remove.
    expect(settingsOf(dir).hooks['UserPromptExpansion']).toEqual([{ hooks: [{ type: 'command', command: 'echo mine' }] }]);
  });

  it("registers SessionStart for every way a session starts, replacing an older install's resume|compact entry", () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    const settings = settingsOf(dir);
    settings.hooks['SessionStart'] = [
      { matcher: 'resume|compact', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook' }] },
    ];
    writeJson(join(dir, '.claude/settings.json'), settings);
    expect(cli(['init', dir]).status).toBe(0);
    // An entry without a matcher is the sandbox's (where it is on): it sends the agent shell's caches to Claude Code's temp folder.
    expect(
      settingsOf(dir)
        .hooks['SessionStart']!.map((entry) => entry.matcher)
        .filter(Boolean),
    ).toEqual(['startup|resume|clear|compact']);
  });
});

describe('bashEditDiffEnabled', () => {
  const home = (userSettings?: Record<string, unknown>): Record<string, string> => {
    const dir = tempDir('isdlc-home-');
    if (userSettings) writeJson(join(dir, '.claude/settings.json'), userSettings);
    return { HOME: dir, CLAUDE_CONFIG_DIR: '' };
  };

  it('is not written into the project (Claude Code reads it only from user settings); init says how to turn it on', () => {
    const dir = userProject();
    const env = home();
    const run = cli(['init', dir], { env });
    expect(run.status, run.stderr).toBe(0);
    expect(settingsOf(dir).bashEditDiffEnabled).toBeUndefined();
    expect(run.stdout).toContain('! bashEditDiffEnabled is not on: isdlc sees which files a shell command changed only in bypass and auto permission modes');
    expect(run.stdout).toContain(`add \`"bashEditDiffEnabled": true\` to ${join(env['HOME']!, '.claude/settings.json')}`);
  });

  it("is quiet when the user's settings turn it on", () => {
    const dir = userProject();
    const run = cli(['init', dir], { env: home({ bashEditDiffEnabled: true }) });
    expect(run.stdout).not.toContain('bashEditDiffEnabled');
  });

  it("keeps the project's false, says it turns the user's true off, and uninstall leaves it", () => {
    const dir = tempDir();
    const theirs = { ...USER_SETTINGS, bashEditDiffEnabled: false };
    writeJson(join(dir, '.claude/settings.json'), theirs);
    const run = cli(['init', dir], { env: home({ bashEditDiffEnabled: true }) });
    expect(run.status, run.stderr).toBe(0);
    expect(settingsOf(dir).bashEditDiffEnabled).toBe(false);
    expect(run.stdout).toContain('! .claude/settings.json sets bashEditDiffEnabled to false, which turns off the true in');
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readJson(join(dir, '.claude/settings.json'))).toEqual(theirs);
  });

  it('says a true in the project is ignored, and keeps it through uninstall', () => {
    const dir = tempDir();
    const theirs = { bashEditDiffEnabled: true, model: 'opus' };
    writeJson(join(dir, '.claude/settings.json'), theirs);
    const run = cli(['init', dir], { env: home() });
    expect(run.stdout).toContain('(the true in .claude/settings.json is ignored: Claude Code reads it only from user or managed settings)');
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readJson(join(dir, '.claude/settings.json'))).toEqual(theirs);
  });

  it("follows CLAUDE_CONFIG_DIR to the user's settings", () => {
    const dir = userProject();
    const config = tempDir('isdlc-config-');
    writeJson(join(config, 'settings.json'), { bashEditDiffEnabled: true });
    const run = cli(['init', dir], { env: { ...home(), CLAUDE_CONFIG_DIR: config } });
    expect(run.stdout).not.toContain('bashEditDiffEnabled');
  });
});

// `isdlc doctor` against the Claude Code installed: the version found again on every run, hooks that
// version would not run, the UserPromptExpansion key, bashEditDiffEnabled and folder trust.
import { chmodSync, existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeWith, trustedHome, withClaude, withoutClaude } from '../helpers/claude-code.js';
import { cli, readJson, tempDir, writeJson, type Run } from '../helpers/project.js';

type Finding = { severity: 'ok' | 'warn' | 'fail'; what: string; fix?: string };

/** A project set up by init for Claude Code `version`. */
function projectFor(version: string): string {
  const dir = tempDir('isdlc-doctor-');
  // A project with tests: init finds `npm test`, so testing.json raises nothing.
  writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
  const run = cli(['init', dir, '--claude-version', version]);
  if (run.status !== 0) throw new Error(run.stderr);
  return dir;
}

function doctor(dir: string, env: Record<string, string>, args: string[] = []): Run & { findings: Finding[] } {
  const run = cli(['doctor', dir, '--json', ...args], { env: { ...trustedHome(dir), ...env } });
  return { ...run, findings: (JSON.parse(run.stdout) as { findings: Finding[] }).findings };
}

const text = (dir: string, env: Record<string, string>, args: string[] = []): Run => cli(['doctor', dir, ...args], { env: { ...trustedHome(dir), ...env } });

describe('doctor checks against the Claude Code installed', () => {
  it('names the version it checked against, found by `claude --version`, and passes an install made for it', () => {
    const dir = projectFor('2.1.114');
    const run = doctor(dir, withClaude('2.1.114'));
    expect(run.status, run.stdout).toBe(0);
    expect(run.findings[0]).toMatchObject({
      severity: 'ok',
      what: expect.stringMatching(/^Claude Code 2\.1\.114 \(found by `claude --version` in \d+ ms\): the hooks are checked against it$/),
    });
    // The one thing short of ok (but for the step that installs Stryker for 16-quality-loop's mutation score):
    // 2.1.114's sandbox cannot run Bash, so init left it off, and doctor says so.
    expect(run.findings.filter((f) => f.severity !== 'ok' && !f.what.includes('need a mutation score'))).toEqual([
      expect.objectContaining({
        severity: 'warn',
        what: expect.stringMatching(/^protection: not sandboxed/),
        fix: expect.stringContaining("Claude Code 2.1.114's sandbox cannot run Bash"),
      }),
    ]);
    // No UserPromptExpansion expected below 2.1.116, and none probed.
    expect(run.findings.some((f) => f.what.includes('UserPromptExpansion'))).toBe(false);
    expect(run.findings).toContainEqual(
      expect.objectContaining({
        severity: 'ok',
        what: expect.stringContaining('SessionStart [startup|resume|clear|compact]: registered command runs and answers'),
      }),
    );
  });

  it('fails exec-form hooks on a Claude Code below 2.1.139, never saying "All good", and names the fix', () => {
    const dir = projectFor('2.1.332');
    const run = text(dir, withClaude('2.1.138'));
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('All good');
    expect(run.stdout).toContain('Claude Code 2.1.138 runs `node` without its arguments: every isdlc hook fails and the tool call goes through');
    expect(run.stdout).toContain(`fix: run \`isdlc init ${dir}\``);
    // The probe starts the command itself, which proves nothing about this Claude Code: it is not shown as passing.
    expect(run.stdout).not.toContain('registered command runs and answers');
    // The fix works: init finds the same Claude Code and registers command lines.
    expect(cli(['init', dir], { env: withClaude('2.1.138') }).status).toBe(0);
    expect(text(dir, withClaude('2.1.138')).stdout).toContain('All good');
  });

  it('re-checks the version on every run: an install for 2.1.332 fails once the flag says 2.1.114, and the fix keeps the flag', () => {
    const dir = projectFor('2.1.332');
    expect(doctor(dir, withClaude('2.1.332')).status).toBe(0);
    const run = doctor(dir, withClaude('2.1.332'), ['--claude-version', '2.1.114']);
    expect(run.status).toBe(1);
    expect(run.findings[0]).toMatchObject({ severity: 'ok', what: 'Claude Code 2.1.114 (from --claude-version): the hooks are checked against it' });
    const exec = run.findings.find((f) => f.what.includes('exec form'));
    expect(exec).toMatchObject({ severity: 'fail', fix: expect.stringContaining(`run \`isdlc init ${dir} --claude-version 2.1.114\``) });
    // isdlc's UserPromptExpansion never fires on 2.1.114: a warning, not a failure.
    expect(run.findings).toContainEqual(
      expect.objectContaining({ severity: 'warn', what: expect.stringContaining("isdlc's UserPromptExpansion hook never fires on Claude Code 2.1.114") }),
    );
  });

  it("fails a UserPromptExpansion key on 2.1.100 or older, ours or the user's, in either project settings file", () => {
    const ours = projectFor('2.1.332');
    const oursRun = doctor(ours, withClaude('2.1.100'));
    expect(oursRun.status).toBe(1);
    expect(oursRun.findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining(
          '.claude/settings.json has a "UserPromptExpansion" key (isdlc registered it): Claude Code 2.1.100 drops every hook in this file, yours included',
        ),
        fix: expect.stringContaining(`run \`isdlc init ${ours}\``),
      }),
    );

    const theirs = projectFor('2.1.100');
    expect(doctor(theirs, withClaude('2.1.100')).status).toBe(0);
    writeJson(join(theirs, '.claude/settings.local.json'), { hooks: { UserPromptExpansion: [] } });
    const run = doctor(theirs, withClaude('2.1.100'));
    expect(run.status).toBe(1);
    expect(run.findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining('.claude/settings.local.json has a "UserPromptExpansion" key: Claude Code 2.1.100 drops every hook in this file'),
        fix: expect.stringContaining('take the "UserPromptExpansion" key out of .claude/settings.local.json'),
      }),
    );
    // From 2.1.101 the key is accepted.
    expect(doctor(theirs, withClaude('2.1.101')).status).toBe(0);
  });

  it('fails a Claude Code below the minimum, with how to upgrade', () => {
    const dir = projectFor('2.1.100');
    const run = doctor(dir, withClaude('2.1.99'));
    expect(run.status).toBe(1);
    expect(run.findings).toContainEqual({
      severity: 'fail',
      what: 'Claude Code 2.1.99 is older than 2.1.100, the oldest isdlc supports: hooks isdlc relies on are dropped or never fire',
      fix: `upgrade Claude Code with \`claude update\` (or \`npm i -g @anthropic-ai/claude-code@latest\`), then run \`isdlc init ${dir}\``,
    });
  });

  it('without a claude on PATH checks against the version init registered for, and warns naming it and how it was found', () => {
    const dir = projectFor('2.1.114');
    const run = doctor(dir, withoutClaude());
    expect(run.status, run.stdout).toBe(0);
    expect(run.findings[0]).toEqual({
      severity: 'warn',
      what: "the installed Claude Code's version could not be found (no `claude` command on PATH): the hooks are checked against 2.1.114, the version init registered for (from --claude-version)",
      fix: 'pass `--claude-version X` with what `claude --version` prints where you run Claude Code',
    });
    // Exec-form hooks edited in by hand are still caught against that version.
    const settingsFile = join(dir, '.claude/settings.json');
    const settings = readJson<{ hooks: Record<string, { hooks: Record<string, unknown>[] }[]> }>(settingsFile);
    settings.hooks['Stop']![0]!.hooks[0] = { type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'], timeout: 600 };
    writeJson(settingsFile, settings);
    const edited = doctor(dir, withoutClaude());
    expect(edited.status).toBe(1);
    expect(edited.findings).toContainEqual(
      expect.objectContaining({ severity: 'fail', what: expect.stringContaining('an isdlc hook is registered in exec form') }),
    );
  });

  it('reports whether bashEditDiffEnabled is on where Claude Code reads it: user settings, not the project', () => {
    const dir = projectFor('2.1.332');
    const home = homeWith({ [dir]: { hasTrustDialogAccepted: true } });
    expect(doctor(dir, { ...withClaude('2.1.332'), ...home })).toMatchObject({ status: 0 });
    expect(doctor(dir, { ...withClaude('2.1.332'), ...home }).findings).toContainEqual(
      expect.objectContaining({ severity: 'warn', what: expect.stringMatching(/^bashEditDiffEnabled is not on: /) }),
    );
    writeJson(join(home['HOME']!, '.claude/settings.json'), { bashEditDiffEnabled: true });
    expect(doctor(dir, { ...withClaude('2.1.332'), ...home }).findings).toContainEqual({
      severity: 'ok',
      what: `bashEditDiffEnabled is on in ${join(home['HOME']!, '.claude/settings.json')}: Claude Code reports the files a shell command changes, in every permission mode`,
    });
    writeJson(join(dir, '.claude/settings.local.json'), { bashEditDiffEnabled: false });
    expect(doctor(dir, { ...withClaude('2.1.332'), ...home }).findings).toContainEqual(
      expect.objectContaining({
        severity: 'warn',
        what: expect.stringContaining('.claude/settings.local.json sets bashEditDiffEnabled to false, which turns off the true in'),
      }),
    );
  });
});

describe('doctor and the node the hooks run', () => {
  it('fails a `node` first on PATH in a folder of the project, and warns when it is not the one init saw', () => {
    const dir = projectFor('2.1.332');
    const recorded = String(readJson(join(dir, '.isdlc/install.json'))['hook_node']);
    expect(recorded).toBe(join(dirname(process.execPath), 'node'));
    const planted = join(dir, 'node_modules/.bin');
    writeJson(join(planted, 'node'), {});
    chmodSync(join(planted, 'node'), 0o755);
    const bad = doctor(dir, { ...withClaude('2.1.332'), PATH: `${planted}:${process.env['PATH'] ?? ''}` });
    expect(bad.status).toBe(1);
    expect(bad.findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining(`the hooks run the first \`node\` on PATH, ${join(planted, 'node')}, which lies in a folder an agent's code can write`),
      }),
    );
    const changed = doctor(dir, { ...withClaude('2.1.332'), PATH: `/usr/bin:${process.env['PATH'] ?? ''}` });
    const node = changed.findings.find((finding) => finding.what.startsWith('the hooks now run'));
    if (existsSync('/usr/bin/node') && '/usr/bin/node' !== recorded) {
      expect(node).toMatchObject({ severity: 'warn', what: expect.stringContaining(`when isdlc was set up it was ${recorded}`) });
    }
    const same = doctor(dir, withClaude('2.1.332'));
    expect(same.findings).toContainEqual({ severity: 'ok', what: `the hooks run ${recorded}` });
  });
});

describe('doctor and toolchain caches inside the sandbox', () => {
  const cacheFindings = (run: { findings: Finding[] }) =>
    run.findings.filter((finding) => finding.what.includes('caches in your home folder') || finding.what.includes('"env": {'));

  it("is quiet with init's SessionStart hook in place, and names `isdlc init` when it is gone", () => {
    const dir = projectFor('2.1.332');
    if ((readJson(join(dir, '.isdlc/install.json'))['sandbox'] as { on?: boolean } | undefined)?.on !== true) return;
    expect(cacheFindings(doctor(dir, withClaude('2.1.332')))).toEqual([]);
    const file = join(dir, '.claude/settings.json');
    const settings = readJson<{ hooks: Record<string, { hooks: { command: string }[] }[]> }>(file);
    settings.hooks['SessionStart'] = settings.hooks['SessionStart']!.filter((entry) => !entry.hooks[0]!.command.includes('CLAUDE_ENV_FILE'));
    writeJson(file, settings);
    expect(cacheFindings(doctor(dir, withClaude('2.1.332')))).toEqual([
      expect.objectContaining({ severity: 'warn', fix: expect.stringContaining(`run \`isdlc init ${dir}\``) }),
    ]);
  });

  it('warns a cache variable in `env` that points into a folder the agent writes: hooks and MCP servers would read it', () => {
    const dir = projectFor('2.1.332');
    // The recipe earlier versions gave, and one that stays out of the agent's reach.
    writeJson(join(dir, '.claude/settings.local.json'), { env: { GOCACHE: '/tmp/claude-0/go-build', CARGO_HOME: '/home/someone/.cargo' } });
    expect(cacheFindings(doctor(dir, withClaude('2.1.332')))).toEqual([
      expect.objectContaining({
        severity: 'warn',
        what: expect.stringMatching(
          /^\.claude\/settings\.local\.json sets "env": \{"GOCACHE": "\/tmp\/claude-0\/go-build"\}, a folder the agent's shell can write; Claude Code gives `env` to its hooks and MCP servers too/,
        ),
        fix: expect.stringContaining('take GOCACHE out of "env" in .claude/settings.local.json'),
      }),
    ]);
  });
});

describe('doctor and settings that switch every hook off', () => {
  it.each(['.claude/settings.json', '.claude/settings.local.json'])('fails on disableAllHooks in %s, naming the file to fix', (rel) => {
    const dir = projectFor('2.1.332');
    const file = join(dir, rel);
    const before = rel.endsWith('local.json') ? {} : readJson<Record<string, unknown>>(file);
    writeJson(file, { ...before, disableAllHooks: true });
    const run = text(dir, withClaude('2.1.332'));
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('All good');
    expect(run.stdout).toContain(`✗ ${rel} sets disableAllHooks: Claude Code runs no hook at all`);
    expect(run.stdout).toContain(`fix: take \`"disableAllHooks": true\` out of ${rel}`);
  });

  it("fails on disableAllHooks in the user's settings", () => {
    const dir = projectFor('2.1.332');
    const home = homeWith({ [dir]: { hasTrustDialogAccepted: true } }, { disableAllHooks: true });
    const run = doctor(dir, { ...withClaude('2.1.332'), ...home });
    expect(run.status).toBe(1);
    expect(run.findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: `${join(home['HOME']!, '.claude/settings.json')} sets disableAllHooks: Claude Code runs no hook at all, so none of isdlc's checks happen`,
      }),
    );
  });
});

describe('doctor and folder trust', () => {
  const trustFinding = (findings: Finding[]): Finding | undefined => findings.find((f) => f.what.includes('trust'));

  it('says the permission rules wait for trust while the folder is not trusted, and how to trust it', () => {
    const dir = projectFor('2.1.332');
    for (const home of [
      homeWith(undefined),
      homeWith({}),
      homeWith({ [dir]: { hasTrustDialogAccepted: false } }),
      homeWith({ [dirname(dir)]: { hasTrustDialogAccepted: true } }),
    ]) {
      const run = doctor(dir, { ...withClaude('2.1.332'), ...home });
      expect(run.status, run.stdout).toBe(0);
      const finding = trustFinding(run.findings);
      expect(finding).toMatchObject({ severity: 'warn', fix: `run \`claude\` in ${dir} once and accept the trust dialog` });
      expect(finding!.what).toContain('take effect once it does');
      expect(finding!.what).toContain('Claude Code asks before each isdlc command and MCP tool, and headless (-p) runs refuse them; hooks run either way');
    }
  });

  it('is satisfied by this exact folder trusted in HOME, or in CLAUDE_CONFIG_DIR when that is set', () => {
    const dir = projectFor('2.1.332');
    expect(trustFinding(doctor(dir, { ...withClaude('2.1.332'), ...trustedHome(dir) }).findings)).toMatchObject({ severity: 'ok' });
    expect(trustFinding(doctor(dir, { ...withClaude('2.1.332'), ...trustedHome(realpathSync(dir)) }).findings)).toMatchObject({ severity: 'ok' });
    const config = tempDir('isdlc-claude-config-');
    writeJson(join(config, '.claude.json'), { projects: { [dir]: { hasTrustDialogAccepted: true } } });
    // HOME does not trust it; CLAUDE_CONFIG_DIR, which Claude Code reads instead, does.
    const run = doctor(dir, { ...withClaude('2.1.332'), ...homeWith({}), CLAUDE_CONFIG_DIR: config });
    expect(trustFinding(run.findings)).toEqual({
      severity: 'ok',
      what: `Claude Code trusts this folder (${join(config, '.claude.json')}): isdlc's permission rules apply`,
    });
  });
});

// What Claude Code itself makes of what `isdlc init` writes: the bashEditDiff setting, the permission
// rules before and after the folder is trusted, and the agent definitions. The scenarios about what the
// hooks notice on their own run in projects without the sandbox and deny rules in front of them
// (`unprotected`); the others show those layers holding where the hooks are gone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli } from '../helpers/project.js';
import { MockApi } from './harness/mock-api.js';
import { bash, call, edit, say, write } from './harness/script.js';
import { activity, asPersonWrote, e2eProject, runClaude, trust, unprotected, userSettings } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

// Changes state.json by a route no text rule names: the path is never written out.
const SNEAKY = `cd .isdlc && python3 -c "import json;p='state'+'.json';s=json.load(open(p));s['forged']=True;json.dump(s,open(p,'w'))"`;

describe('bashEditDiff', () => {
  const tidyUp = { name: 'main', turns: [call(bash(SNEAKY)), say('Tidied.')] };
  const defaultMode = ['--permission-mode', 'default', '--allowedTools', 'Bash'];

  test('Claude Code ignores bashEditDiffEnabled in project settings: without the user setting no bashEditDiff comes in the default mode (the journal still finds the change), and doctor says how to turn it on', async () => {
    const project = unprotected(e2eProject({ trusted: true }));
    const settingsFile = join(project.dir, '.claude', 'settings.json');
    writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(readFileSync(settingsFile, 'utf8')), bashEditDiffEnabled: true }, null, 2));
    const run = await runClaude(project, { prompt: 'Tidy up.', permissions: defaultMode, scripts: [tidyUp] });
    expect(run.exitCode, run.stderr).toBe(0);
    const post = activity(project).find((entry) => entry.event === 'PostToolUse' && entry.tool === 'Bash')!;
    expect(post['edit_diff']).toBeUndefined();
    // Found by the journal of isdlc's writes, not from a diff: undone and told.
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')).not.toContain('"forged"');
    expect(MockApi.shown(run.api.conversation('main')[1]!)).toContain('isdlc tamper-evidence');
    const doctor = cli(['doctor', project.dir, '--claude-version', project.version], { env: { HOME: project.home } });
    expect(doctor.stdout).toMatch(/! bashEditDiffEnabled is not on \(the true in \.claude\/settings\.json is ignored/);
  });

  test('with it in the user settings, a shell change to state in the default mode is reported, and isdlc tells the model and the person', async () => {
    const project = unprotected(e2eProject({ trusted: true }));
    userSettings(project, { bashEditDiffEnabled: true });
    // Claude Code's diff leaves out what git ignores: a project that still keeps its state in git.
    const ignore = join(project.dir, '.isdlc', '.gitignore');
    writeFileSync(ignore, readFileSync(ignore, 'utf8').replace(/^state\.json\n/m, ''));
    asPersonWrote(project);
    const doctor = cli(['doctor', project.dir, '--claude-version', project.version], { env: { HOME: project.home } });
    expect(doctor.stdout).toMatch(/✓ bashEditDiffEnabled is on in /);
    const run = await runClaude(project, { prompt: 'Tidy up.', permissions: defaultMode, scripts: [tidyUp] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')).not.toContain('"forged"');
    const post = activity(project).find((entry) => entry.event === 'PostToolUse' && entry.tool === 'Bash')!;
    expect(String(post['edit_diff'])).toContain('.isdlc/state.json');
    expect(JSON.stringify(post)).toContain('.isdlc/state.json');
    // The model reads it in its next request; the person sees it as Claude Code's system message.
    const next = MockApi.shown(run.api.conversation('main')[1]!);
    expect(next).toContain('.isdlc/state.json');
    const response = run.hookResponses.find((hook) => hook.hook_name === 'PostToolUse:Bash')!;
    expect(JSON.parse(response.stdout)).toMatchObject({ systemMessage: expect.stringContaining('.isdlc/state.json') });
  });
});

describe('disableAllHooks', () => {
  const FORGE = `sed -i 's/"state_version"/"state_versi0n"/' .isdlc/state.json`;

  test('in the local settings it stops every hook, isdlc with them, and doctor fails on it; the sandbox still holds', async () => {
    const project = e2eProject({ trusted: true });
    writeFileSync(join(project.dir, '.claude', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }));
    const run = await runClaude(project, { prompt: 'Go.', scripts: [{ name: 'main', turns: [call(bash(FORGE)), say('Done.')] }] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(activity(project)).toEqual([]);
    // No hook ran, yet the forgery failed: the sandbox and the deny rules do not depend on the hooks.
    expect(run.api.toolResult(run.api.toolUseIds('Bash')[0]!)?.isError).toBe(true);
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')).toContain('"state_version"');
    const doctor = cli(['doctor', project.dir, '--claude-version', project.version], { env: { HOME: project.home } });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('✗ .claude/settings.local.json sets disableAllHooks');
    expect(doctor.stdout).not.toContain('All good');
  });

  test("one value of the wrong type in .claude/settings.json drops the whole file, isdlc's hooks with it; the agent's edits of that file are refused", async () => {
    const broken = e2eProject({ trusted: true });
    const brokenFile = join(broken.dir, '.claude', 'settings.json');
    writeFileSync(brokenFile, JSON.stringify({ ...JSON.parse(readFileSync(brokenFile, 'utf8')), model: 42 }));
    const dropped = await runClaude(broken, { prompt: 'Go.', scripts: [{ name: 'main', turns: [call(bash('echo hi')), say('Done.')] }] });
    expect(dropped.exitCode, dropped.stderr).toBe(0);
    expect(activity(broken)).toEqual([]);

    const project = unprotected(e2eProject({ trusted: true }));
    const file = join(project.dir, '.claude', 'settings.json');
    const before = readFileSync(file, 'utf8');
    const run = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            // Claude Code validates its own Edit of a settings file: a wrong type never gets written.
            call(edit(file, '"permissions": {', '"model": 42,\n  "permissions": {')),
            // A valid edit that makes isdlc's hook do nothing is isdlc's to refuse.
            call({ name: 'Edit', input: { file_path: file, old_string: '"hook"', new_string: '"--version"', replace_all: true } }),
            call(bash(FORGE)),
            say('Done.'),
          ],
        },
      ],
    });
    const [wrongType, edited, forge] = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
    expect(wrongType!.isError).toBe(true);
    expect(wrongType!.text).toContain('validation failed');
    expect(edited!.isError).toBe(true);
    expect(edited!.text).toContain('Leave .claude/settings.json as it is');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(forge!.isError).toBe(true);
  });

  test("the agent's Write that would set it, in the project's or the user's settings, is denied, and the hooks keep running", async () => {
    const project = unprotected(e2eProject({ trusted: true }));
    const run = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            call(write(join(project.dir, '.claude', 'settings.local.json'), JSON.stringify({ disableAllHooks: true }))),
            call(write(join(project.home, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }))),
            call(bash(FORGE)),
            say('Done.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [local, user, forge] = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
    expect(local!.isError).toBe(true);
    expect(local!.text).toContain('hook-settings-guard');
    expect(user!.isError).toBe(true);
    // Still watched: the forgery after the attempts is denied.
    expect(forge!.isError).toBe(true);
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')).toContain('"state_version"');
  });
});

describe('trust', () => {
  test('before the folder is trusted Claude Code ignores the permission rules, and doctor says so; after, neither', async () => {
    const project = e2eProject();
    const before = await runClaude(project, { prompt: 'Hello.', scripts: [{ name: 'main', turns: [say('Hi.')] }] });
    expect(before.stderr).toMatch(/Ignoring \d+ permissions\.allow entries/);
    const doctorBefore = cli(['doctor', project.dir, '--claude-version', project.version], { env: { HOME: project.home } });
    expect(doctorBefore.stdout).toMatch(/! .*trust/i);

    trust(project);
    const after = await runClaude(project, { prompt: 'Hello.', scripts: [{ name: 'main', turns: [say('Hi.')] }] });
    expect(after.stderr).not.toMatch(/Ignoring \d+ permissions\.allow entries/);
    const doctorAfter = cli(['doctor', project.dir, '--claude-version', project.version], { env: { HOME: project.home } });
    expect(doctorAfter.stdout).not.toMatch(/! .*trust/i);
  });
});

describe('agent definitions', () => {
  test('Claude Code loads every file isdlc installed without a warning', async () => {
    const project = e2eProject();
    const debugFile = join(project.home, 'debug.log');
    const run = await runClaude(project, { prompt: 'Hello.', args: ['--debug-file', debugFile], scripts: [{ name: 'main', turns: [say('Hi.')] }] });
    expect(run.exitCode, run.stderr).toBe(0);
    const log = readFileSync(debugFile, 'utf8');
    expect(log).toMatch(/agents?/i);
    const warnings = log.split('\n').filter((line) => /\[WARN\]/.test(line) && line.includes(project.dir));
    expect(warnings).toEqual([]);
  });
});

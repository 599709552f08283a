// What each part of the protection `isdlc init` writes is for: taken out, a route the full setup refuses
// gets through (or, for the sandbox's own deny list, does not: docs/sandbox.md says why it stays). Each
// project here is init's, with one part (or a few independent parts) removed by hand afterwards.
import { pathWithoutSandbox } from '../helpers/claude-code.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { definitionWithHook } from './harness/attack-routes.js';
import { delegateToHelper } from './harness/attack-run.js';
import { changes, guardedProject, snapshot } from './harness/guarded.js';
import { bash, call, edit, say, write } from './harness/script.js';
import { asPersonWrote, runClaude, type E2eProject } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

interface Settings {
  sandbox: { enabled?: boolean; failIfUnavailable?: boolean; allowUnsandboxedCommands?: boolean; filesystem?: { denyWrite?: string[] } };
  permissions: { deny?: string[]; blockWritesOutsideWorkingDirectories?: boolean };
}

/** Changes the project's settings as init wrote them. */
function withSettings(project: E2eProject, change: (settings: Settings) => void): E2eProject {
  const file = join(project.dir, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Settings;
  change(settings);
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  return asPersonWrote(project);
}

/** The paths whose fingerprint differs, without the fingerprints. */
function changedPaths(project: E2eProject, before: ReturnType<typeof snapshot>): string[] {
  return changes(before, snapshot(project)).map((line) => line.split(': ')[0]!);
}

/**
 * changedPaths, less the state file: isdlc keeps in it the files the workflow's phase changed, so a Write
 * that got through changes it too (and a forged one the next hook would have undone).
 */
function changedByRoutes(project: E2eProject, before: ReturnType<typeof snapshot>): string[] {
  return changedPaths(project, before).filter((path) => path !== 'project:.isdlc/state.json');
}

/** A write no command parser can see: the path is put together by the script. */
const NODE_WRITE = (file: string): string => `node -e "const p=['${file.split('/').join("','")}'].join('/');require('fs').appendFileSync(p,'FORGED')"`;

const DENIED = /has been denied|denied by your permission settings/;

describe('what each part of the protection is for', () => {
  test('sandbox.enabled: without it, a script writes state and config; the deny rules still refuse what they can read', async () => {
    const project = withSettings(guardedProject(), (settings) => (settings.sandbox.enabled = false));
    const before = snapshot(project);
    const run = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            call(bash(NODE_WRITE('.isdlc/state.json'))),
            call(bash(NODE_WRITE('.isdlc/config/README.md'))),
            call(bash('echo FORGED >> .isdlc/config/README.md')),
            say('Done.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [, , visible] = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
    expect(visible!.text).toMatch(DENIED);
    // (isdlc's next hook finds the state unreadable and keeps it aside as state.corrupt-….json.)
    expect(changedPaths(project, before)).toEqual(expect.arrayContaining(['project:.isdlc/config/README.md', 'project:.isdlc/state.json']));
  });

  test('sandbox.failIfUnavailable: without bubblewrap, Claude Code refuses to start; with false it starts unsandboxed and a script writes config', async () => {
    const env = { PATH: pathWithoutSandbox() };
    const turns = [call(bash(NODE_WRITE('.isdlc/config/README.md'))), say('Done.')];
    const strict = guardedProject();
    const refused = await runClaude(strict, { prompt: 'Go.', env, scripts: [{ name: 'main', turns }] });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toMatch(/bubblewrap \(bwrap\) not installed[\s\S]*Refusing to start without a working sandbox/);
    expect(refused.api.calls).toEqual([]);

    const lenient = withSettings(guardedProject(), (settings) => (settings.sandbox.failIfUnavailable = false));
    const before = snapshot(lenient);
    const run = await runClaude(lenient, { prompt: 'Go.', env, scripts: [{ name: 'main', turns }] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Sandbox disabled[\s\S]*WITHOUT sandboxing/);
    expect(changedPaths(lenient, before)).toEqual(['project:.isdlc/config/README.md']);
  });

  test('allowUnsandboxedCommands, blockWritesOutsideWorkingDirectories, the git exclude block and the deny rules for definitions: each route gets through without its part', async () => {
    const project = withSettings(guardedProject(), (settings) => {
      delete settings.sandbox.allowUnsandboxedCommands;
      delete settings.permissions.blockWritesOutsideWorkingDirectories;
      settings.permissions.deny = settings.permissions.deny!.filter((rule) => !/\.claude\/(agents|skills|commands)/.test(rule));
    });
    const exclude = join(project.dir, '.git', 'info', 'exclude');
    writeFileSync(exclude, readFileSync(exclude, 'utf8').replace(/# isdlc: names[\s\S]*# isdlc: end\n/, ''));
    const before = snapshot(project);
    const first = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            // Without allowUnsandboxedCommands: false, the model may ask for a command outside the sandbox.
            call(bash(NODE_WRITE('.isdlc/config/README.md'), { dangerouslyDisableSandbox: true })),
            // Without blockWritesOutsideWorkingDirectories, the Write tool reaches the user's settings.
            call(write('~/.claude/settings.json', '{"sandbox":{"enabled":false}}\n')),
            // Without the exclude block, the placeholders stop `git add -A`.
            call(bash('git add -A')),
            // Without the deny rules for definitions, an agent with a hook in it.
            call(write(join(project.dir, '.claude', 'agents', 'helper.md'), definitionWithHook('helper', 'printf FORGED > .isdlc/forged-by-hook'))),
            say('Done.'),
          ],
        },
      ],
    });
    expect(first.exitCode, first.stderr).toBe(0);
    const [unsandboxed, outside, add, definition] = first.api.calls.map((sent) => first.api.toolResult(sent.id)!);
    expect(unsandboxed!.isError).toBe(false);
    expect(outside!.isError).toBe(false);
    expect(add!.text).toMatch(/can only add regular files/);
    expect(definition!.isError).toBe(false);
    expect(changedByRoutes(project, before)).toEqual(['home:.claude/settings.json', 'project:.isdlc/config/README.md']);
    // The next session delegates to that agent: Claude Code runs its hook outside the sandbox.
    const second = await delegateToHelper(project);
    expect(second.exitCode, second.stderr).toBe(0);
    // It wrote into .isdlc/; isdlc's next hook call found the newcomer and set it aside, FORGED and all.
    const aside = readdirSync(join(project.dir, '.isdlc')).filter((name) => name.startsWith('forged-by-hook'));
    expect(aside).toEqual([expect.stringMatching(/^forged-by-hook\.rejected-/)]);
    expect(readFileSync(join(project.dir, '.isdlc', aside[0]!), 'utf8')).toBe('FORGED');
  });

  test('the Edit deny rules: without them the file tools write config, bin, the constitution, .mcp.json and git hooks and config; state and the settings files are caught by other layers', async () => {
    const project = withSettings(guardedProject(), (settings) => delete settings.permissions.deny);
    const dir = project.dir;
    const before = snapshot(project);
    const run = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            // Caught without the rules: isdlc's hook for the state, Claude Code itself for its settings.
            call(write(join(dir, '.isdlc', 'state.json'), '{"FORGED":true}\n')),
            call(write(join(dir, '.claude', 'settings.local.json'), '{"FORGED":true}\n')),
            call(write(join(dir, '.isdlc', 'config', 'workflows.json'), '{"FORGED":true}\n')),
            call(write(join(dir, 'docs', 'isdlc', 'constitution.md'), '# FORGED\n')),
            call(write(join(dir, '.claude', 'hooks', 'config', 'workflows.json'), '{"FORGED":true}\n')),
            call(write(join(dir, '.mcp.json'), '{"mcpServers":{}}\n')),
            call(write(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho FORGED\n')),
            call({ name: 'Read', input: { file_path: join(dir, '.git', 'config') } }),
            call(edit(join(dir, '.git', 'config'), '[core]', '[core]\n\thooksPath = /tmp/FORGED')),
            // Last: with isdlc's hook replaced, nothing of isdlc's would answer any more.
            call(write(join(dir, '.isdlc', 'bin', 'isdlc.cjs'), 'process.exit(0)\n')),
            // The shell is still refused: the sandbox's own deny list holds it.
            call(bash(NODE_WRITE('.isdlc/config/README.md'))),
            say('Done.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const results = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
    const [state, local] = results;
    const shell = results.at(-1);
    expect(state!.text).toMatch(/hook error: isdlc state-write-validator: /);
    expect(local!.text).toMatch(/Writes to Claude Code settings files are blocked while permissions\.blockWritesOutsideWorkingDirectories is on/);
    expect(shell!.text).toMatch(/EROFS|read-only file system/i);
    // The journal undid what it watches (a new folder is set aside whole, its workflows.json in it) until
    // the last write replaced isdlc's own program: from then on nothing of isdlc checked anything.
    expect(changedByRoutes(project, before)).toEqual([
      'project:.claude/hooks/config',
      'project:.git/config',
      'project:.git/hooks/pre-commit',
      'project:.isdlc/bin/isdlc.cjs',
      'project:.isdlc/config/workflows.json',
      'project:.mcp.json',
      'project:docs/isdlc/constitution.md',
    ]);
  });

  test('sandbox.filesystem.denyWrite: without it the shell is still refused everywhere (Claude Code 2.1.332 makes what an Edit rule denies read-only to the sandbox, and keeps its own files read-only)', async () => {
    const project = withSettings(guardedProject(), (settings) => delete settings.sandbox.filesystem);
    const targets = [
      '.isdlc/state.json',
      '.isdlc/config/README.md',
      '.isdlc/bin/isdlc.cjs',
      '.isdlc/loop.db',
      'docs/isdlc/constitution.md',
      '.claude/settings.json',
      '.mcp.json',
      '.git/config',
    ];
    const before = snapshot(project);
    const run = await runClaude(project, {
      prompt: 'Go.',
      scripts: [
        {
          name: 'main',
          turns: [
            ...targets.map((target) => call(bash(NODE_WRITE(target)))),
            call(bash(`node -e "require('fs').mkdirSync('.claude/hooks/config/x', { recursive: true })"`)),
            say('Done.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    for (const sent of run.api.calls) expect(run.api.toolResult(sent.id)!.text).toMatch(/EROFS|EBUSY|EACCES|ENOENT|read-only/i);
    expect(changes(before, snapshot(project))).toEqual([]);
  });
});

// Stand-ins for the Claude Code installed on a user's machine, so that no test depends on a `claude` on
// this machine's PATH (or on its absence): a real executable that prints a version as `claude --version`
// does, a PATH with no `claude` at all, and a HOME whose `.claude.json` trusts a folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tempDir, writeFile, writeJson } from './project.js';

/** A folder holding a `claude` that prints `stdout` (by default as 2.1.332 prints its version) and exits `status`. */
export function fakeClaudeDir(version: string, options: { stdout?: string; status?: number; sleepSeconds?: number } = {}): string {
  const dir = tempDir('isdlc-fake-claude-');
  const stdout = options.stdout ?? `${version} (Claude Code)\n`;
  const script = [
    '#!/bin/sh',
    // `exec`, so that the process a timeout kills is the one holding the output pipe.
    options.sleepSeconds ? `exec sleep ${options.sleepSeconds}` : '',
    `printf '%s' '${stdout.replace(/'/g, `'\\''`)}'`,
    `exit ${options.status ?? 0}`,
  ].join('\n');
  writeFile(join(dir, 'claude'), `${script}\n`);
  chmodSync(join(dir, 'claude'), 0o755);
  return dir;
}

/** The environment for `cli()` with a `claude` of this version first on PATH. */
export function withClaude(version: string, options: Parameters<typeof fakeClaudeDir>[1] = {}): Record<string, string> {
  return { PATH: `${fakeClaudeDir(version, options)}${delimiter}${process.env['PATH'] ?? ''}` };
}

let bare: string | undefined;
/**
 * The environment for `cli()` with a PATH that holds `node`, `bash` and `sh` and nothing else: no `claude`.
 * Node's own folder comes first where it holds no `claude` (doctor rightly fails a `node` found in a temp folder).
 */
export function withoutClaude(): Record<string, string> {
  // Made again after the folders of the test file before it were removed.
  if (!bare || !existsSync(bare)) {
    bare = tempDir('isdlc-no-claude-');
    symlinkSync(process.execPath, join(bare, 'node'));
    for (const tool of ['bash', 'sh']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found) symlinkSync(found, join(bare, tool));
    }
  }
  const nodeFolder = dirname(process.execPath);
  return { PATH: existsSync(join(nodeFolder, 'claude')) ? bare : `${nodeFolder}:${bare}` };
}

/**
 * A HOME whose `.claude.json` holds `projects` (trust records by folder path) and whose
 * `.claude/settings.json` holds `userSettings`; CLAUDE_CONFIG_DIR unset.
 */
export function homeWith(projects: Record<string, Record<string, unknown>> | undefined, userSettings?: Record<string, unknown>): Record<string, string> {
  const home = tempDir('isdlc-home-');
  if (projects) writeJson(join(home, '.claude.json'), { numStartups: 3, projects });
  if (userSettings) writeJson(join(home, '.claude', 'settings.json'), userSettings);
  return { HOME: home, CLAUDE_CONFIG_DIR: '' };
}

/** The HOME of a user who set isdlc up as the README says: Claude Code trusts `project`, bashEditDiff is on. */
export function trustedHome(project: string): Record<string, string> {
  return homeWith({ [project]: { allowedTools: [], hasTrustDialogAccepted: true } }, { bashEditDiffEnabled: true });
}

/** A PATH with everything of this machine's but bwrap and socat: a teammate's machine Claude Code's sandbox cannot run on. */
export function pathWithoutSandbox(): string {
  const bin = tempDir('isdlc-no-bwrap-');
  for (const dir of (process.env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name === 'bwrap' || name === 'socat' || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

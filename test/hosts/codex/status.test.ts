// `isdlc status` says what keeps the agent's shell off isdlc's files for each host the project is set up
// for. With two hosts the agent may work in either, so the project counts as sandboxed only when both
// hold their shell; one host's sandbox says nothing about the other's shell.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, writeJson } from '../../helpers/project.js';

const SANDBOXED = "sandboxed (the agent's shell cannot write isdlc's files)";

function project(...initArgs: string[]): string {
  const dir = tempDir('isdlc-codex-status-');
  writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
  const run = cli(['init', dir, '--codex-version', '0.171.0', ...initArgs]);
  if (run.status !== 0) throw new Error(run.stderr);
  return dir;
}

const status = (dir: string): string => cli(['status', '--dir', dir]).stdout;
const statusJson = (dir: string): { protection: Record<string, unknown> } =>
  JSON.parse(cli(['status', '--dir', dir, '--json']).stdout) as { protection: Record<string, unknown> };

describe('status: protection per host', () => {
  it("Codex only: the profile holds the shell; without isdlc's profile it does not, and status says why", () => {
    const dir = project('--host', 'codex');
    expect(status(dir)).toContain(`Protection: ${SANDBOXED}`);
    expect(statusJson(dir).protection).toEqual({ sandboxed: true });
    // Something took isdlc's permission profile out of the project's config.
    const config = join(dir, '.codex/config.toml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('default_permissions = "isdlc"\n', ''));
    expect(status(dir)).toContain("Protection: not sandboxed: isdlc's permission profile is missing from .codex/config.toml");
  });

  it("two hosts, Claude Code's sandbox off: a line each, and the project is not counted as sandboxed", () => {
    const dir = project('--host', 'claude-code,codex', '--no-sandbox');
    const text = status(dir);
    expect(text).toContain('Protection (the agent may work in either host):');
    expect(text).toContain('  Claude Code: not sandboxed: the sandbox is off');
    expect(text).toContain(`  Codex: ${SANDBOXED}`);
    expect(statusJson(dir).protection).toMatchObject({
      sandboxed: false,
      why: expect.stringContaining('Claude Code: the sandbox is off'),
      hosts: [
        { host: 'Claude Code', sandboxed: false, why: expect.stringContaining('the sandbox is off') },
        { host: 'Codex', sandboxed: true },
      ],
    });
  });
});

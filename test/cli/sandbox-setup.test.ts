// `isdlc init` turns Claude Code's sandbox on where it can run, keeps Claude Code's file tools off
// isdlc's files, and gives back exactly what the user had; `doctor` and `status` say how protected the
// project is. (That the settings hold against the real Claude Code: test/e2e/sandbox.test.ts.)
import { readFileSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeClaudeDir, trustedHome } from '../helpers/claude-code.js';
import { cli, git, readJson, tempDir, writeJson } from '../helpers/project.js';

interface Settings {
  sandbox?: {
    enabled?: boolean;
    failIfUnavailable?: boolean;
    allowUnsandboxedCommands?: boolean;
    excludedCommands?: string[];
    filesystem?: { denyWrite?: string[] };
  };
  permissions?: { allow?: string[]; deny?: string[]; blockWritesOutsideWorkingDirectories?: boolean };
  hooks?: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  [key: string]: unknown;
}

function repo(settings?: Settings): string {
  const dir = tempDir('isdlc-sandbox-');
  git(dir, 'init', '-q', '-b', 'main');
  if (settings) writeJson(join(dir, '.claude/settings.json'), settings);
  return dir;
}

const settingsOf = (dir: string): Settings => readJson<Settings>(join(dir, '.claude/settings.json'));
const excludeOf = (dir: string): string => readFileSync(join(dir, '.git/info/exclude'), 'utf8');

let noSandboxTools: string | undefined;
/** A PATH with node, git, sh and a `claude`, but no bwrap and no socat. */
function pathWithoutBubblewrap(): Record<string, string> {
  if (!noSandboxTools) {
    noSandboxTools = tempDir('isdlc-no-bwrap-');
    symlinkSync(process.execPath, join(noSandboxTools, 'node'));
    for (const tool of ['git', 'sh', 'bash']) symlinkSync(`/usr/bin/${tool}`, join(noSandboxTools, tool));
  }
  return { PATH: `${fakeClaudeDir('2.1.332')}${delimiter}${noSandboxTools}` };
}

describe('isdlc init and the sandbox', () => {
  it("turns it on with isdlc's files denied to the agent's shell and file tools, and keeps sandbox placeholders out of git", () => {
    const dir = repo();
    const run = cli(['init', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^sandboxed: every Bash call/m);
    const settings = settingsOf(dir);
    expect(settings.sandbox).toEqual({
      enabled: true,
      failIfUnavailable: true,
      allowUnsandboxedCommands: false,
      filesystem: {
        denyWrite: ['.isdlc', '.claude/hooks/config', '.claude/settings.json', '.claude/settings.local.json', '.mcp.json', 'docs/isdlc/constitution.md'],
      },
    });
    expect(settings.permissions?.deny).toEqual(
      expect.arrayContaining([
        'Edit(/.isdlc/**)',
        'Edit(/docs/isdlc/constitution.md)',
        'Edit(/.claude/settings.json)',
        'Edit(/.mcp.json)',
        'Edit(/.git/hooks/**)',
        'Edit(/.git/config)',
      ]),
    );
    expect(settings.permissions?.blockWritesOutsideWorkingDirectories).toBe(true);
    // Names that do not exist are listed; what init created (.mcp.json) is not. `.claude/hooks` is where the
    // sandbox mounts an empty folder for the missing `.claude/hooks/config`; `.cc-writes` is Claude Code's own.
    expect(excludeOf(dir)).toContain('\n/.claude/settings.local.json\n');
    expect(excludeOf(dir)).toContain('\n/.claude/hooks\n');
    expect(excludeOf(dir)).toContain('\n/.claude/.cc-writes\n');
    expect(excludeOf(dir)).not.toContain('/.mcp.json');
    // The agent's shell gets its caches in Claude Code's temp folder, through a SessionStart hook of its own.
    expect(settings.hooks?.['SessionStart']).toContainEqual({
      hooks: [expect.objectContaining({ command: expect.stringContaining('>> "$CLAUDE_ENV_FILE"') })],
    });
    expect(readJson(join(dir, '.isdlc/install.json'))['sandbox']).toEqual({ on: true });

    expect(cli(['status', '--dir', dir]).stdout).toContain("Protection: sandboxed (the agent's shell cannot write isdlc's files)");
    expect(JSON.parse(cli(['status', '--dir', dir, '--json']).stdout).protection).toEqual({ sandboxed: true });
    const doctor = cli(['doctor', dir], { env: trustedHome(dir) });
    expect(doctor.stdout).toContain("✓ protection: sandboxed: the agent's Bash runs in Claude Code's sandbox");
  });

  it("replaces the user's sandbox values, says so, and uninstall gives back their file exactly", () => {
    const user: Settings = {
      model: 'sonnet',
      sandbox: { enabled: false, excludedCommands: ['docker *'], filesystem: { denyWrite: ['secrets'] } },
      permissions: { deny: ['Read(./secrets/**)'] },
    };
    const dir = repo(user);
    const run = cli(['init', dir]);
    expect(run.stdout).toContain('replaced your sandbox.enabled: false');
    expect(settingsOf(dir).sandbox).toMatchObject({ enabled: true, excludedCommands: ['docker *'] });
    expect(settingsOf(dir).sandbox?.filesystem?.denyWrite?.slice(0, 2)).toEqual(['secrets', '.isdlc']);
    // Their excluded commands run outside the sandbox: doctor says so.
    expect(cli(['doctor', dir], { env: trustedHome(dir) }).stdout).toMatch(/! sandbox\.excludedCommands lets these run outside the sandbox.*docker \*/);
    expect(cli(['init', dir]).status).toBe(0);
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(settingsOf(dir)).toEqual(user);
    expect(excludeOf(dir)).not.toContain('isdlc');
  });

  it('--no-sandbox takes the sandbox back and keeps the deny rules; doctor and status say it is off on purpose', () => {
    const dir = repo();
    expect(cli(['init', dir]).status).toBe(0);
    const run = cli(['init', dir, '--no-sandbox']);
    expect(run.stdout).toContain('! not sandboxed: turned off with `isdlc init --no-sandbox`');
    const settings = settingsOf(dir);
    expect(settings.sandbox).toBeUndefined();
    expect(settings.permissions?.deny).toContain('Edit(/.isdlc/**)');
    expect(JSON.stringify(settings.hooks)).not.toContain('CLAUDE_ENV_FILE');
    expect(excludeOf(dir)).not.toContain('isdlc');
    expect(cli(['status', '--dir', dir]).stdout).toContain('Protection: not sandboxed: the sandbox is off');
    // Both say in one sentence what holds without it, and what does not.
    const holds = 'What holds then is tamper evidence: accidental and casual changes';
    expect(cli(['status', '--dir', dir]).stdout).toContain(holds);
    const doctor = cli(['doctor', dir], { env: trustedHome(dir) });
    expect(doctor.stdout).toContain(holds);
    expect(doctor.stdout).toContain('an agent set on getting past it runs with your rights and can');
    expect(doctor.stdout).toMatch(/! protection: not sandboxed: .*\n\s+fix: it was left off on purpose \(`isdlc init --no-sandbox`\)/);
    // And on again.
    expect(cli(['init', dir]).stdout).toMatch(/^sandboxed:/m);
    expect(settingsOf(dir).sandbox?.enabled).toBe(true);
  });

  it('anchors the names at the project, wherever it is in the work tree', () => {
    const top = repo();
    const dir = join(top, 'services', 'api');
    writeJson(join(dir, 'package.json'), { name: 'api', version: '1.0.0' });
    expect(cli(['init', dir]).status).toBe(0);
    expect(excludeOf(top)).toContain('\n/services/api/.bashrc\n');
    expect(excludeOf(top)).toContain('\n/services/api/.claude/hooks\n');
    expect(excludeOf(top)).not.toMatch(/^\/\.bashrc$/m);
  });

  it('on a machine without bubblewrap it leaves the sandbox off and says what to install', () => {
    const dir = repo();
    const env = pathWithoutBubblewrap();
    const run = cli(['init', dir], { env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('! not sandboxed: `bwrap` and `socat` are not on PATH; install: sudo apt-get install bubblewrap socat');
    expect(settingsOf(dir).sandbox).toBeUndefined();
    expect(settingsOf(dir).permissions?.deny).toContain('Edit(/.isdlc/**)');
    const doctor = cli(['doctor', dir], { env: { ...env, ...trustedHome(dir) } });
    expect(doctor.stdout).toMatch(
      /! protection: not sandboxed.*\n\s+fix: `bwrap` and `socat` are not on PATH: install it \(sudo apt-get install bubblewrap socat/,
    );
  });

  it('doctor fails a project whose sandbox this machine cannot start: Claude Code would refuse to start', () => {
    const dir = repo();
    expect(cli(['init', dir]).status).toBe(0);
    const doctor = cli(['doctor', dir], { env: { ...pathWithoutBubblewrap(), ...trustedHome(dir) } });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(
      /✗ sandboxed in the settings, but the sandbox cannot run on this machine: `bwrap` and `socat` are not on PATH; Claude Code refuses to start here/,
    );
    // What to install, or how to go without it on this machine alone: the shared settings stay as they are.
    expect(doctor.stdout).toContain('fix: install it: sudo apt-get install bubblewrap socat');
    expect(doctor.stdout).toContain(
      'or, to work on this machine without the sandbox, put {"sandbox": {"enabled": false}} in .claude/settings.local.json and run `isdlc changes accept`',
    );

    // The teammate does so: doctor says the sandbox is off on this machine only, and how to take it back.
    writeJson(join(dir, '.claude/settings.local.json'), { sandbox: { enabled: false } });
    expect(cli(['changes', 'accept', '--dir', dir]).status).toBe(0);
    const after = cli(['doctor', dir], { env: { ...pathWithoutBubblewrap(), ...trustedHome(dir) } });
    expect(after.stdout).not.toContain('Claude Code refuses to start here');
    expect(after.stdout).toMatch(
      /! protection: not sandboxed: the sandbox is off .*\n\s+fix: \.claude\/settings\.local\.json turns it off on this machine only; `bwrap` and `socat` are not on PATH \(install: sudo apt-get install bubblewrap socat.*\): take its sandbox values out and run `isdlc changes accept`/,
    );
    expect(settingsOf(dir).sandbox).toMatchObject({ enabled: true, failIfUnavailable: true });
  });

  it('stops before any change when the settings cannot take the sandbox', () => {
    const dir = repo({ sandbox: true as never });
    const before = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
    const run = cli(['init', dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('"sandbox" is not an object. Fix it first; isdlc changed nothing.');
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toBe(before);
  });

  it('leaves the sandbox off for a Claude Code whose sandbox cannot run Bash, and says why', () => {
    const dir = repo();
    const run = cli(['init', dir, '--claude-version', '2.1.114']);
    expect(run.stdout).toContain("! not sandboxed: Claude Code 2.1.114's sandbox cannot run Bash (it works from 2.1.138)");
    expect(settingsOf(dir).sandbox).toBeUndefined();
    // Without blockWritesOutsideWorkingDirectories, the settings files outside the project are denied by name.
    expect(settingsOf(dir).permissions?.blockWritesOutsideWorkingDirectories).toBeUndefined();
    expect(settingsOf(dir).permissions?.deny).toEqual(expect.arrayContaining(['Edit(~/.claude/**)', 'Edit(~/.claude.json)']));
  });
});

// Codex's own sandbox as a project sets it: a permission profile in `.codex/config.toml` that extends
// the workspace profile and makes `.isdlc` read-only. The agent's shell cannot write there, the rest of
// the project stays writable, and a hook (run outside the sandbox) still can.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { call, shell, say } from './harness/codex-script.js';
import { codexProject, runCodex, usesCodex, writeHooks, writeProjectFile, type CodexProject } from './harness/codex-session.js';

usesCodex();

/** The key must come before any table, or TOML puts it in that table. */
const PROFILE = `default_permissions = "isdlc"

[permissions.isdlc]
extends = ":workspace"

[permissions.isdlc.filesystem.":workspace_roots"]
".isdlc" = "read"
`;

function projectWithState(profile: boolean): CodexProject {
  const project = codexProject({ files: { '.isdlc/state.json': '{}\n' } });
  if (profile) writeProjectFile(project, '.codex/config.toml', PROFILE);
  // A hook writing into .isdlc at every tool call.
  writeHooks(project, { PreToolUse: [{ command: `date >> '${join(project.dir, '.isdlc', 'hook-wrote.log')}'` }] });
  return project;
}

describe('a permission profile in the project', () => {
  test('makes .isdlc read-only for the agent’s shell, not for the rest of the project, not for hooks', async () => {
    const project = projectWithState(true);
    const run = await runCodex(project, { turns: [call(shell('touch .isdlc/x')), call(shell('touch elsewhere.txt')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    const [blocked, allowed] = run.api.callIds('exec_command');
    expect(run.api.output(blocked!)).toContain("touch: cannot touch '.isdlc/x': Read-only file system");
    expect(run.api.output(blocked!)).not.toContain('Process exited with code 0');
    expect(existsSync(join(project.dir, '.isdlc', 'x'))).toBe(false);
    expect(run.api.output(allowed!)).toContain('Process exited with code 0');
    expect(existsSync(join(project.dir, 'elsewhere.txt'))).toBe(true);
    expect(existsSync(join(project.dir, '.isdlc', 'hook-wrote.log'))).toBe(true);
  });

  test('control: without the profile the same command writes .isdlc', async () => {
    const project = projectWithState(false);
    const run = await runCodex(project, { turns: [call(shell('touch .isdlc/x')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.api.output(run.api.callIds('exec_command')[0]!)).toContain('Process exited with code 0');
    expect(existsSync(join(project.dir, '.isdlc', 'x'))).toBe(true);
  });
});

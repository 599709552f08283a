// Older Claude Code versions read isdlc's registrations differently (docs/claude-code-versions.md). Set
// up for the version that runs, isdlc's hooks demonstrably run there; set up for a newer one, they do
// not, and `isdlc doctor` says so instead of "All good".
import { describe, expect, test } from 'vitest';
import { BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION, CURRENT } from './harness/claude-versions.js';
import { bash, call, say } from './harness/script.js';
import { activity, e2eProject, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';
import { cli } from '../helpers/project.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

usesClaudeCode(CURRENT, BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION);

const FORGE = `sed -i 's/"state_version"/"state_versi0n"/' .isdlc/state.json`;

function settingsOf(dir: string): { hooks: Record<string, { hooks: { command: string; args?: string[] }[] }[]> } {
  return JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
}

describe.each([BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION])('Claude Code %s', (version) => {
  test('init registers what this version runs, and the hooks demonstrably run: a forged state write is denied', async () => {
    const project = e2eProject({ version });
    const settings = settingsOf(project.dir);
    const ours = Object.values(settings.hooks)
      .flat()
      .flatMap((entry) => entry.hooks)
      .filter((hook) => JSON.stringify(hook).includes('.isdlc/bin/isdlc.cjs'));
    expect(ours.length).toBeGreaterThan(0);
    expect(
      ours.every((hook) => hook.args === undefined),
      'shell form below 2.1.139',
    ).toBe(true);
    // UserPromptExpansion fires from 2.1.116; up to 2.1.100 its key would drop every hook of the file.
    expect('UserPromptExpansion' in settings.hooks).toBe(version === BELOW_EXEC_FORM);

    const run = await runClaude(project, { prompt: '/isdlc status', scripts: [{ name: 'main', turns: [call(bash(FORGE)), say('Could not.')] }] });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = run.api.toolResult(run.api.toolUseIds('Bash')[0]!);
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('isdlc');
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')).toContain('"state_version"');
    const events = new Set(activity(project).map((entry) => entry.event));
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'Stop']) expect(events).toContain(event);
    expect(run.hookResponses.filter((response) => response.exit_code !== 0)).toEqual([]);
  });

  test(`hooks registered for ${CURRENT} do not run on it, and doctor says so`, async () => {
    const project = e2eProject({ version: CURRENT });
    const run = await runClaude(project, { version, prompt: 'Hello.', scripts: [{ name: 'main', turns: [call(bash(FORGE)), say('Done.')] }] });
    expect(run.exitCode, run.stderr).toBe(0);
    // The hooks never got a payload they could read. On 2.1.138 the forgery fails all the same, stopped by
    // the sandbox and the deny rules, which do not depend on the hooks; 2.1.100 drops the whole settings
    // file over its UserPromptExpansion key, the sandbox with it, and the forgery goes through.
    expect(activity(project).filter((entry) => !entry.problem)).toEqual([]);
    const fileDropped = version === BELOW_PROMPT_EXPANSION;
    expect(run.api.toolResult(run.api.toolUseIds('Bash')[0]!)?.isError).toBe(!fileDropped);
    expect(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8').includes('"state_version"')).toBe(!fileDropped);

    const doctor = cli(['doctor', project.dir, '--claude-version', version]);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).not.toContain('All good');
    expect(doctor.stdout).toContain(version);
    // init for this version repairs it.
    expect(cli(['init', project.dir, '--claude-version', version]).status).toBe(0);
    const after = cli(['doctor', project.dir, '--claude-version', version]);
    expect(after.stdout).not.toMatch(/✗.*(Claude Code|hook)/);
  });
});

// Every event isdlc registers reaches it when the real Claude Code runs the session: through both
// registration forms, from a project folder whose name holds a space.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { activity, e2eProject, runClaude } from './harness/session.js';
import { agent, bash, call, edit, say, skill, startsWith, write } from './harness/script.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

/** The events our registrations in .claude/settings.json name. */
function registeredEvents(dir: string): string[] {
  const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string; args?: string[] }[] }[]>;
  };
  return Object.entries(settings.hooks)
    .filter(([, entries]) => entries.some((entry) => entry.hooks.some((hook) => JSON.stringify(hook).includes('.isdlc/bin/isdlc.cjs'))))
    .map(([event]) => event);
}

describe.each(['exec', 'shell'] as const)('with %s-form hooks, in a folder with a space', (form) => {
  test('every registered event and every tool kind reaches isdlc, and no hook call fails', async () => {
    const project = e2eProject({ space: true, initArgs: ['--hook-form', form] });
    const run = await runClaude(project, {
      // A typed command: UserPromptExpansion, then the expanded /isdlc prompt as the conversation's start.
      prompt: '/isdlc status',
      scripts: [
        {
          name: 'orchestrator',
          match: startsWith('ORCHESTRATE'),
          turns: [call(bash('node .isdlc/bin/isdlc.cjs status')), say('No workflow is active.')],
        },
        {
          name: 'main',
          turns: [
            call(skill('isdlc', 'status')),
            call(agent('sdlc-orchestrator', 'ORCHESTRATE: report the workflow status', { run_in_background: false })),
            call(bash('echo hello from the agent')),
            call(bash('exit 3')),
            call(write(join(project.dir, 'notes.md'), 'first line\n')),
            call(edit(join(project.dir, 'notes.md'), 'first line', 'edited line')),
            say('All done.'),
          ],
        },
      ],
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    const seen = activity(project);
    const seenEvents = new Set(seen.map((entry) => entry.event));
    const registered = registeredEvents(project.dir);
    expect(registered.length).toBeGreaterThanOrEqual(8);
    for (const event of registered) expect(seenEvents, `${event} never reached isdlc`).toContain(event);
    for (const tool of ['Skill', 'Agent', 'Bash', 'Write', 'Edit']) {
      expect(
        seen.some((entry) => entry.event === 'PreToolUse' && entry.tool === tool),
        `PreToolUse ${tool}`,
      ).toBe(true);
      expect(
        seen.some((entry) => entry.event === 'PostToolUse' && entry.tool === tool),
        `PostToolUse ${tool}`,
      ).toBe(true);
    }
    expect(seen.some((entry) => entry.event === 'PostToolUseFailure' && entry.tool === 'Bash' && entry['exit_code'] === 3)).toBe(true);
    // Every payload was read as a hook payload (a command run without its arguments would not get here).
    expect(seen.filter((entry) => entry.problem)).toEqual([]);
    // Claude Code's own account: every hook call it made exited 0.
    expect(run.hookResponses.length).toBeGreaterThanOrEqual(seen.length);
    expect(run.hookResponses.filter((response) => response.exit_code !== 0 || response.outcome !== 'success')).toEqual([]);
    expect(new Set(seen.map((entry) => entry.session))).toEqual(new Set([run.sessionId]));
  });
});

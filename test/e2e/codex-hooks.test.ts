// The Codex harness itself, independent of isdlc: the real `codex exec` 0.171.0 against the scripted
// Responses API, with hooks a project registers in `.codex/hooks.json`. What later Codex scenarios rely
// on: hooks fire at the events they say, a PreToolUse deny stops the command and its reason is what the
// model reads next, an untrusted hook is skipped without a word, and a hook trusted by its hash runs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listHooks } from './harness/codex-app-server.js';
import { hookStateKey, hookTrustHash, OTHER_EVENT_GROUPS, trustProjectHooks } from './harness/codex-hook-trust.js';
import { call, shell, say } from './harness/codex-script.js';
import { codexProject, jsonLines, runCodex, usesCodex, writeHooks, writeProjectFile, type CodexProject } from './harness/codex-session.js';

usesCodex();

/** A hook script appending each call's stdin (one JSON payload) as a line of the file it is given. */
const RECORDER = '#!/bin/sh\n{ cat; echo; } >> "$1"\n';

/** Registers the recorder for `events`; returns the file it writes (beside the project, not in it). */
function recordHooks(project: CodexProject, events: string[]): string {
  const script = writeProjectFile(project, '.codex/record.sh', RECORDER, 0o755);
  const canary = join(project.dir, '..', 'hook-calls.jsonl');
  writeHooks(project, Object.fromEntries(events.map((event) => [event, [{ command: `sh '${script}' '${canary}'` }]])));
  return canary;
}

/** `Event` or `Event:Tool`, per recorded call. */
const events = (file: string): string[] =>
  jsonLines(file).map((payload) => [payload['hook_event_name'], payload['tool_name']].filter((part) => typeof part === 'string').join(':'));

describe('hooks of a trusted project', () => {
  test('fire at SessionStart, PreToolUse and PostToolUse, with the call id the model gave', async () => {
    const project = codexProject();
    const canary = recordHooks(project, ['SessionStart', 'PreToolUse', 'PostToolUse']);
    const run = await runCodex(project, { turns: [call(shell('echo canary-output')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(events(canary)).toEqual(['SessionStart', 'PreToolUse:Bash', 'PostToolUse:Bash']);
    const [, pre, post] = jsonLines(canary);
    const [callId] = run.api.callIds('exec_command');
    expect(pre).toMatchObject({ cwd: project.dir, tool_input: { command: 'echo canary-output' }, tool_use_id: callId });
    expect(post!['tool_response']).toContain('canary-output');
    expect(run.api.requests).toHaveLength(2);
  });

  test('a PreToolUse deny stops the command, and the reason is what the model reads next', async () => {
    const project = codexProject();
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'forbidden files stay out' },
    });
    const script = writeProjectFile(project, '.codex/deny.sh', `#!/bin/sh\nif grep -q forbidden; then printf '%s\\n' '${deny}'; fi\n`, 0o755);
    writeHooks(project, { PreToolUse: [{ command: `sh '${script}'` }] }, '^Bash$');
    const run = await runCodex(project, { turns: [call(shell('touch forbidden.txt')), call(shell('touch allowed.txt')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(project.dir, 'forbidden.txt'))).toBe(false);
    expect(existsSync(join(project.dir, 'allowed.txt'))).toBe(true);
    const [denied, allowed] = run.api.callIds('exec_command');
    expect(run.api.output(denied!)).toBe('Command blocked by PreToolUse hook: forbidden files stay out. Command: touch forbidden.txt');
    // The model's very next request carries it.
    expect(run.api.requests[1]!.body.input?.some((item) => item.call_id === denied && String(item.output).includes('forbidden files stay out'))).toBe(true);
    expect(run.api.output(allowed!)).toContain('Process exited with code 0');
  });
});

describe('hook trust', () => {
  test('without --dangerously-bypass-hook-trust an untrusted hook is skipped, and nothing says so', async () => {
    const project = codexProject();
    const canary = recordHooks(project, ['SessionStart', 'PreToolUse', 'PostToolUse']);
    const run = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('touch made.txt')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(project.dir, 'made.txt'))).toBe(true);
    expect(existsSync(canary)).toBe(false);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/hook/i);
    // Codex knows the hooks and calls them untrusted.
    const listing = await listHooks(project);
    expect(listing.hooks.map((hook) => hook.trustStatus)).toEqual(['untrusted', 'untrusted', 'untrusted']);
  });

  test('a hook trusted by its hash in the person config runs without the bypass; edited afterwards, it is skipped again', async () => {
    const project = codexProject();
    const canary = recordHooks(project, ['SessionStart', 'PreToolUse', 'PostToolUse']);
    trustProjectHooks(project);
    expect((await listHooks(project)).hooks.map((hook) => hook.trustStatus)).toEqual(['trusted', 'trusted', 'trusted']);
    const run = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('true')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(events(canary)).toEqual(['SessionStart', 'PreToolUse:Bash', 'PostToolUse:Bash']);

    // One more space in the command: a different hook as far as trust goes.
    const hooksFile = join(project.dir, '.codex', 'hooks.json');
    writeProjectFile(project, '.codex/hooks.json', readFileSync(hooksFile, 'utf8').replaceAll("sh '", "sh  '"));
    expect((await listHooks(project)).hooks.map((hook) => hook.trustStatus)).toEqual(['modified', 'modified', 'modified']);
    const again = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('true')), say('Done.')] });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(events(canary)).toHaveLength(3);
  });

  test('the trusted hash is the one Codex computes, for every kind of event and handler field', async () => {
    const project = codexProject();
    const groups: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> = {
      PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'echo "pre" é\t', timeout: 30 }] }],
      PostToolUse: [{ hooks: [{ type: 'command', command: 'x', statusMessage: 'checking', additionalContextLimit: 7, commandWindows: 'y' }] }],
      Stop: [{ matcher: 'ignored', hooks: [{ type: 'command', command: 'stop', timeout: 0, async: true }] }],
      UserPromptSubmit: [{ matcher: 'ignored', hooks: [{ type: 'command', command: 'prompt' }] }],
      SessionStart: [
        {
          matcher: 'startup|resume',
          hooks: [
            { type: 'command', command: 'a' },
            { type: 'command', command: 'b', timeout: 5 },
          ],
        },
      ],
      ...OTHER_EVENT_GROUPS,
    };
    const file = writeProjectFile(project, '.codex/hooks.json', JSON.stringify({ hooks: groups }));
    const expected: Record<string, string> = {};
    for (const [event, list] of Object.entries(groups)) {
      list.forEach((group, g) =>
        group.hooks.forEach((handler, h) => {
          expected[hookStateKey(file, event, g, h)] = hookTrustHash(event, group.matcher, handler as { command: string });
        }),
      );
    }
    const listing = await listHooks(project);
    expect(listing.errors).toEqual([]);
    expect(Object.fromEntries(listing.hooks.map((hook) => [hook.key, hook.currentHash]))).toEqual(expected);
  });
});

// Merging our hooks into a user's .claude/settings.json and taking them out again, as pure functions.
import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../../src/hosts/claude-code/versions.js';
import {
  BASH_EDIT_DIFF_SETTING,
  findOurHooks,
  isOurHook,
  mergeOurSettings,
  REGISTRATIONS,
  registrationsFor,
  removeOurSettings,
  type Settings,
} from '../../../src/hosts/claude-code/settings.js';

const userHook = { type: 'command', command: 'npx prettier --write "$FILE"', timeout: 30 };
/** The isdlc tools init pre-approves: only those that read. */
const READ_ONLY = ['status', 'gate_check', 'delegation_prompt', 'escalations', 'iteration_status', 'task_get', 'checkpoint_resume'].map(
  (tool) => `mcp__isdlc__${tool}`,
);
/** What isdlc 0.1 allowed: the whole command line and every tool of its server. */
const LEGACY = ['Bash(node .isdlc/bin/isdlc.cjs:*)', 'mcp__isdlc'];
const userSettings: Settings = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine', timeout: 5 }] }],
    PostToolUse: [{ matcher: 'Write|Edit', hooks: [userHook] }],
  },
};

describe('merge', () => {
  it('adds one isdlc hook per registration, in seconds, and keeps every user entry as it was', () => {
    const { settings } = mergeOurSettings(userSettings, 'exec');
    const ours = findOurHooks(settings);
    expect(ours).toHaveLength(REGISTRATIONS.length);
    for (const { event, hook } of ours) {
      // A running loop's rules (a test suite) run inside the Stop hooks; everything else answers fast.
      expect(hook.timeout).toBeLessThanOrEqual(event === 'Stop' || event === 'SubagentStop' ? 600 : 30);
      expect(hook).toMatchObject({ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'] });
    }
    const hooks = settings['hooks'] as Record<string, { matcher?: string; hooks: unknown[] }[]>;
    expect(hooks['PreToolUse']![0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine', timeout: 5 }] });
    expect(hooks['PostToolUse']![0]).toEqual({ matcher: 'Write|Edit', hooks: [userHook] });
    expect((settings['permissions'] as { allow: string[] }).allow).toEqual(['Bash(npm test:*)', ...READ_ONLY]);
    expect((settings['permissions'] as { deny: string[] }).deny).toEqual(['Read(./.env)']);
    expect(settings['model']).toBe('opus');
  });

  it('registers the matchers the foundation needs', () => {
    const { settings } = mergeOurSettings({}, 'exec');
    expect(findOurHooks(settings).map((hook) => `${hook.event} ${hook.matcher ?? ''}`.trim())).toEqual([
      'PreToolUse Agent|Task',
      'PreToolUse Skill',
      'PreToolUse Bash|PowerShell',
      'PreToolUse Write|Edit|MultiEdit|NotebookEdit',
      'PreToolUse mcp__isdlc__.*',
      'PostToolUse Agent|Task|Skill|Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read',
      'PostToolUse mcp__isdlc__.*',
      'PostToolUseFailure Agent|Task|Skill|Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit',
      'Stop',
      'SubagentStop',
      'UserPromptSubmit',
      'UserPromptExpansion',
      'SessionStart startup|resume|clear|compact',
    ]);
  });

  it('is idempotent: merging twice gives the same settings', () => {
    const once = mergeOurSettings(userSettings, 'exec').settings;
    expect(mergeOurSettings(once, 'exec').settings).toEqual(once);
  });

  it('does not modify its input', () => {
    const input = structuredClone(userSettings);
    mergeOurSettings(input, 'exec');
    expect(input).toEqual(userSettings);
  });

  it('brings an older hook of ours up to date in place, and drops duplicates', () => {
    const stale = {
      hooks: {
        PreToolUse: [
          { matcher: 'Agent|Task', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook', timeout: 15000 }] },
          { matcher: 'Agent|Task', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook', timeout: 10 }, userHook] },
        ],
        // A registration no longer made (an older layout): ours goes, the user's stays.
        Notification: [{ hooks: [{ type: 'command', command: 'node .isdlc/bin/isdlc.cjs hook', timeout: 5 }, userHook] }],
      },
    };
    const { settings } = mergeOurSettings(stale, 'exec');
    const pre = (settings['hooks'] as Record<string, { matcher?: string; hooks: { timeout: number }[] }[]>)['PreToolUse']!;
    const agentEntries = pre.filter((entry) => entry.matcher === 'Agent|Task');
    expect(agentEntries).toHaveLength(2);
    expect(agentEntries[0]!.hooks).toEqual([{ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'], timeout: 10 }]);
    expect(agentEntries[1]!.hooks).toEqual([userHook]);
    expect((settings['hooks'] as Record<string, unknown>)['Notification']).toEqual([{ hooks: [userHook] }]);
  });

  it("takes an older install's broad permission rules out; the user's stay", () => {
    const { settings } = mergeOurSettings({ permissions: { allow: ['Bash(npm test:*)', ...LEGACY, 'mcp__github'] } }, 'exec');
    expect((settings['permissions'] as { allow: string[] }).allow).toEqual(['Bash(npm test:*)', 'mcp__github', ...READ_ONLY]);
  });

  it('can register the hook as one shell command line', () => {
    const { settings } = mergeOurSettings({}, 'shell');
    expect(findOurHooks(settings)[0]!.hook).toEqual({ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook', timeout: 10 });
  });

  it.each([
    [{ hooks: [] }, '"hooks" is not an object'],
    [{ hooks: { PreToolUse: {} } }, '"hooks.PreToolUse" is not an array'],
    [{ permissions: { allow: 'Bash(*)' } }, '"permissions.allow" is not an array'],
  ])('refuses settings it cannot merge into safely: %j', (settings, message) => {
    expect(() => mergeOurSettings(settings, 'exec')).toThrow(message);
  });
});

describe('remove', () => {
  it('leaves exactly what the user had', () => {
    const { settings, created } = mergeOurSettings(userSettings, 'exec');
    expect(removeOurSettings(settings, created)).toEqual(userSettings);
  });

  it('leaves empty settings when the user had none', () => {
    const { settings, created } = mergeOurSettings({}, 'exec');
    expect(removeOurSettings(settings, created)).toEqual({});
  });

  it('keeps containers the user had even when empty', () => {
    const input = { hooks: {}, permissions: { allow: [] } };
    const { settings, created } = mergeOurSettings(input, 'exec');
    expect(removeOurSettings(settings, created)).toEqual(input);
  });

  it('keeps what the user added after init, even beside our hooks', () => {
    const { settings, created } = mergeOurSettings({}, 'exec');
    const hooks = settings['hooks'] as Record<string, { hooks: unknown[] }[]>;
    hooks['Stop']![0]!.hooks.push(userHook);
    (settings['permissions'] as { allow: string[] }).allow.push('Bash(git status)');
    expect(removeOurSettings(settings, created)).toEqual({
      hooks: { Stop: [{ hooks: [userHook] }] },
      permissions: { allow: ['Bash(git status)'] },
    });
  });

  it("takes out an older install's permission rules too", () => {
    const older = {
      permissions: { allow: ['Bash(npm test:*)', ...LEGACY] },
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node .isdlc/bin/isdlc.cjs hook', timeout: 600 }] }] },
    };
    expect(removeOurSettings(older)).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } });
  });

  it('recognises our hooks in both forms and nothing else', () => {
    expect(isOurHook({ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'] })).toBe(true);
    expect(isOurHook({ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook' })).toBe(true);
    expect(isOurHook({ type: 'command', command: 'node .isdlc/bin/isdlc.cjs status' })).toBe(false);
    expect(isOurHook({ type: 'command', command: 'echo hook' })).toBe(false);
    expect(isOurHook(userHook)).toBe(false);
  });
});

describe('registrations follow the Claude Code version', () => {
  const forVersion = (version: string) => registrationsFor(capabilitiesOf(version));
  const events = (settings: Settings): string[] => Object.keys(settings['hooks'] as Record<string, unknown>);

  it('leaves UserPromptExpansion out below 2.1.116, and re-merging for such a version takes ours out, key and all', () => {
    const newest = mergeOurSettings({}, 'exec').settings;
    expect(events(newest)).toContain('UserPromptExpansion');
    const older = mergeOurSettings(newest, 'shell', forVersion('2.1.100')).settings;
    // An empty list under the key would still switch off every hook of the file on 2.1.100.
    expect(events(older)).not.toContain('UserPromptExpansion');
    expect(findOurHooks(older).every(({ hook }) => typeof hook.command === 'string' && hook.args === undefined)).toBe(true);
    expect(events(mergeOurSettings(older, 'exec', forVersion('2.1.139')).settings)).toContain('UserPromptExpansion');
  });

  it("keeps the user's own UserPromptExpansion hooks when it takes ours out", () => {
    const theirs = { hooks: [{ type: 'command', command: 'echo expanded', timeout: 5 }] };
    const withOurs = mergeOurSettings({ hooks: { UserPromptExpansion: [theirs] } }, 'exec').settings;
    expect((withOurs['hooks'] as Record<string, unknown[]>)['UserPromptExpansion']).toHaveLength(2);
    const without = mergeOurSettings(withOurs, 'shell', forVersion('2.1.110')).settings;
    expect((without['hooks'] as Record<string, unknown>)['UserPromptExpansion']).toEqual([theirs]);
  });

  it("replaces SessionStart's older resume|compact entry instead of adding a second one; the user's hook in it stays", () => {
    const older = {
      hooks: {
        SessionStart: [
          { matcher: 'resume|compact', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs" hook', timeout: 10 }] },
        ],
      },
    };
    const { settings } = mergeOurSettings(older, 'exec');
    expect((settings['hooks'] as Record<string, unknown>)['SessionStart']).toEqual([
      {
        matcher: 'startup|resume|clear|compact',
        hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'], timeout: 10 }],
      },
    ]);
    const shared = structuredClone(older);
    shared.hooks.SessionStart[0]!.hooks.push(userHook);
    const kept = (mergeOurSettings(shared, 'exec').settings['hooks'] as Record<string, { matcher?: string; hooks: unknown[] }[]>)['SessionStart']!;
    expect(kept.map((entry) => entry.matcher)).toEqual(['resume|compact', 'startup|resume|clear|compact']);
    expect(kept[0]!.hooks).toEqual([userHook]);
    expect(findOurHooks({ hooks: { SessionStart: kept } })).toHaveLength(1);
  });
});

describe('bashEditDiffEnabled', () => {
  // Claude Code reads it only from user and managed settings: in the project it would only mislead.
  it('is never added to the project settings', () => {
    expect(Object.hasOwn(mergeOurSettings(userSettings, 'exec').settings, BASH_EDIT_DIFF_SETTING)).toBe(false);
    expect(Object.hasOwn(mergeOurSettings({}, 'shell').settings, BASH_EDIT_DIFF_SETTING)).toBe(false);
  });

  it.each([false, true, 'yes'])("keeps the user's own value %j, and uninstall leaves it", (value) => {
    const input = { ...userSettings, [BASH_EDIT_DIFF_SETTING]: value };
    const { settings, created } = mergeOurSettings(input, 'exec');
    expect(settings[BASH_EDIT_DIFF_SETTING]).toBe(value);
    expect(removeOurSettings(settings, created)).toEqual(input);
  });
});

import { symlinkSync } from 'node:fs';
import { expect } from 'vitest';
import { guardTable } from '../../../test/helpers/guard-table.js';
import { readJson } from '../../../test/helpers/project.js';

const write = (file: string, content: unknown) => (project: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: 'S-1',
  tool_name: 'Write',
  tool_input: { file_path: `${project}/${file}`, content: typeof content === 'string' ? content : JSON.stringify(content, null, 2) },
  tool_use_id: 'toolu_settings',
});
const edit = (file: string, from: string, to: string) => (project: string) => ({
  hook_event_name: 'PreToolUse',
  session_id: 'S-1',
  tool_name: 'Edit',
  tool_input: { file_path: `${project}/${file}`, old_string: from, new_string: to },
  tool_use_id: 'toolu_settings',
});

const OURS = { type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'], timeout: 10 };
const SETTINGS = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash|PowerShell', hooks: [OURS] }],
    Stop: [{ hooks: [{ ...OURS, timeout: 600 }] }, { hooks: [{ type: 'command', command: 'say done' }] }],
  },
};
const files = { '.claude/settings.json': SETTINGS };
const untouched = ({ project }: { project: string }) => expect(readJson(`${project}/.claude/settings.json`)).toEqual(SETTINGS);

guardTable('hook-settings-guard', {
  valid: [
    { name: 'the same settings.json, only reformatted', files, payload: write('.claude/settings.json', JSON.stringify(SETTINGS)), expect: 'allow' },
    {
      name: 'a permission rule in the local settings, where project settings of the agent belong',
      files,
      payload: write('.claude/settings.local.json', { permissions: { allow: ['Bash(npm run lint)'] } }),
      expect: 'allow',
    },
    { name: 'a local settings file with a theme', payload: write('.claude/settings.local.json', { theme: 'dark' }), expect: 'allow' },
    { name: 'disableAllHooks: false is nothing to stop', payload: write('.claude/settings.local.json', { disableAllHooks: false }), expect: 'allow' },
    {
      name: 'an Edit whose old_string is not there would fail anyway',
      files,
      payload: edit('.claude/settings.json', '"nothing like this"', '"disableAllHooks": true'),
      expect: 'allow',
    },
    { name: 'some other settings.json is not Claude Code’s', payload: write('config/settings.json', { disableAllHooks: true }), expect: 'allow' },
    {
      name: 'a local settings file that already switched hooks off may be edited further',
      files: { '.claude/settings.local.json': { disableAllHooks: true } },
      payload: write('.claude/settings.local.json', { disableAllHooks: true, theme: 'dark' }),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'disableAllHooks in the local settings',
      files,
      payload: write('.claude/settings.local.json', { disableAllHooks: true }),
      expect: 'deny',
      reasonIncludes: ['disableAllHooks', '.claude/settings.local.json', 'runs no hook at all'],
    },
    {
      name: 'disableAllHooks as a string, which Claude Code also stops hooks on',
      payload: write('.claude/settings.local.json', { disableAllHooks: 'true' }),
      expect: 'deny',
    },
    {
      name: 'the path spelled with ./ and ..',
      payload: (project) => write('.claude/settings.local.json', { disableAllHooks: true })(`${project}/./.claude/../.claude/..`),
      expect: 'deny',
    },
    {
      name: 'a symlink the agent made to the local settings',
      files: { '.claude/settings.local.json': {} },
      setup: (project) => symlinkSync(`${project}/.claude/settings.local.json`, `${project}/harmless.json`),
      payload: write('harmless.json', { disableAllHooks: true }),
      expect: 'deny',
      reasonIncludes: ['.claude/settings.local.json'],
    },
    {
      name: 'settings.json: even a harmless-looking permission rule (one value Claude Code rejects drops the whole file)',
      files,
      payload: write('.claude/settings.json', { ...SETTINGS, permissions: { allow: ['Bash(npm test)', 'Bash(npm run lint)'] } }),
      expect: 'deny',
      reasonIncludes: ['Leave .claude/settings.json as it is', '.claude/settings.local.json', 'drops the whole file'],
      then: untouched,
    },
    {
      name: 'settings.json: a value of the wrong type (`"model": 42` switches every hook off)',
      files,
      payload: edit('.claude/settings.json', '"permissions": {', '"model": 42,\n  "permissions": {'),
      expect: 'deny',
      then: untouched,
    },
    {
      name: 'settings.json: disableAllHooks added by an Edit',
      files,
      payload: edit('.claude/settings.json', '"permissions": {', '"disableAllHooks": true,\n  "permissions": {'),
      expect: 'deny',
    },
    {
      name: 'settings.json: isdlc’s Stop hook taken out',
      files,
      payload: write('.claude/settings.json', { ...SETTINGS, hooks: { ...SETTINGS.hooks, Stop: [SETTINGS.hooks.Stop[1]] } }),
      expect: 'deny',
    },
    { name: 'settings.json: isdlc’s hook rewritten to do nothing', files, payload: edit('.claude/settings.json', '"hook"', '"--version"'), expect: 'deny' },
    {
      name: 'settings.json: a MultiEdit (its edits applied in order)',
      files,
      payload: (project) => ({
        ...edit('.claude/settings.json', '', '')(project),
        tool_name: 'MultiEdit',
        tool_input: {
          file_path: `${project}/.claude/settings.json`,
          edits: [{ old_string: '"permissions": {', new_string: '"disableAllHooks": true,\n  "permissions": {' }],
        },
      }),
      expect: 'deny',
      then: untouched,
    },
    {
      name: 'a dangling symlink to local settings not made yet (a Write through it creates them)',
      setup: (project) => symlinkSync(`${project}/.claude/settings.local.json`, `${project}/prefs.json`),
      payload: (project) => ({ ...write('prefs.json', { disableAllHooks: true })(project), cwd: project }),
      expect: 'deny',
      reasonIncludes: ['.claude/settings.local.json'],
    },
    {
      name: 'a NotebookEdit of settings.json through a notebook symlink',
      files,
      setup: (project) => symlinkSync(`${project}/.claude/settings.json`, `${project}/notes.ipynb`),
      payload: (project) => ({
        ...edit('x', '', '')(project),
        tool_name: 'NotebookEdit',
        tool_input: { notebook_path: 'notes.ipynb', new_source: 'x', cell_type: 'code', edit_mode: 'insert' },
      }),
      expect: 'deny',
      reasonIncludes: ['not a notebook'],
      then: untouched,
    },
    { name: 'settings.json: made unreadable', files, payload: write('.claude/settings.json', '{ "hooks": '), expect: 'deny' },
  ],
});

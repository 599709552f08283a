import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { fixture } from '../../test/helpers/project.js';
import { bashCall } from '../../test/helpers/payloads.js';

const P = '/project';
const start = (source: string) => ({ ...fixture('session-start-compact.json'), cwd: P, source });

guardTable('hooks-seen', {
  valid: [
    {
      name: 'a session start records that the host ran the hooks, by host',
      state: { state_version: 1, active_workflow: null, hooks_seen: { codex: '2026-11-01T00:00:00.000Z' } },
      payload: start('startup'),
      expect: 'allow',
      then: ({ state }) => {
        expect(state['hooks_seen']['claude-code']).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(state['hooks_seen']['codex'], "another host's record stays").toBe('2026-11-01T00:00:00.000Z');
      },
    },
    {
      name: 'a resumed session too',
      state: { state_version: 1, active_workflow: null },
      payload: start('resume'),
      expect: 'allow',
      then: ({ state }) => expect(Object.keys(state['hooks_seen'])).toEqual(['claude-code']),
    },
    {
      name: 'any other event records nothing',
      state: { state_version: 1, active_workflow: null },
      payload: bashCall(P, 'ls'),
      expect: 'allow',
      then: ({ state }) => expect(state['hooks_seen']).toBeUndefined(),
    },
    {
      name: 'no state file: nothing is made',
      payload: start('startup'),
      expect: 'allow',
      then: ({ state }) => expect(state).toEqual({}),
    },
  ],
  invalid: [],
});

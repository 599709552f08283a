import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { fixture } from '../../test/helpers/project.js';

const P = '/project';
const skillResult = (skill: string, args = '') => ({
  ...fixture('post-bash.json'),
  cwd: P,
  tool_name: 'Skill',
  tool_input: { skill, args },
  tool_response: { success: true, commandName: skill },
});
const typed = (command: string, args = '') => ({
  ...fixture('user-prompt-expansion.json'),
  cwd: P,
  command_name: command,
  command_args: args,
  prompt: `/${command} ${args}`.trim(),
});
const state = () => ({ state_version: 2, active_workflow: null, skill_usage_log: [] });
const noMarker = ({ state: s, decision }: { state: Record<string, any>; decision: { context?: string } }) => {
  expect(s['pending_delegation'] ?? null).toBeNull();
  expect(decision.context).toBeUndefined();
};

guardTable('skill-delegation-enforcer', {
  valid: [
    {
      name: 'the isdlc skill: the marker is recorded and the model told to delegate to sdlc-orchestrator',
      state: state(),
      payload: skillResult('isdlc', 'feature "CSV export"'),
      expect: 'allow',
      contextIncludes: ['/isdlc is loaded', 'subagent_type "sdlc-orchestrator"'],
      then: ({ state: s }) =>
        expect(s['pending_delegation']).toMatchObject({
          skill: 'isdlc',
          required_agent: 'sdlc-orchestrator',
          args: 'feature "CSV export"',
          invoked_at: expect.any(String),
          session_id: expect.any(String),
          reminders: 0,
        }),
    },
    {
      name: '/discover typed by the user (UserPromptExpansion)',
      state: state(),
      payload: typed('discover'),
      expect: 'allow',
      contextIncludes: ['discover-orchestrator'],
      then: ({ state: s }) => expect(s['pending_delegation']).toMatchObject({ skill: 'discover', required_agent: 'discover-orchestrator' }),
    },
    {
      name: 'a plugin-namespaced name (isdlc:isdlc)',
      state: state(),
      payload: skillResult('isdlc:isdlc', 'fix "crash"'),
      expect: 'allow',
      then: ({ state: s }) => expect(s['pending_delegation'].required_agent).toBe('sdlc-orchestrator'),
    },
    {
      name: 'exempt actions (add, analyze) need no orchestrator',
      state: state(),
      payload: skillResult('isdlc', 'analyze "login flow"'),
      expect: 'allow',
      then: noMarker,
    },
    { name: 'add, with flags before it', state: state(), payload: typed('isdlc', '--quiet add "dark mode"'), expect: 'allow', then: noMarker },
    { name: 'other skills are not ours', state: state(), payload: skillResult('pdf', 'report.pdf'), expect: 'allow', then: noMarker },
    {
      name: 'no state file: no marker, and no state file is made',
      payload: skillResult('isdlc', 'feature "x"'),
      expect: 'allow',
      then: ({ state: s, decision }) => {
        expect(s).toEqual({});
        expect(decision.context).toBeUndefined();
      },
    },
    { name: 'other slash commands are not ours', state: state(), payload: typed('shpecho', 'EXPANDED'), expect: 'allow', then: noMarker },
  ],
  invalid: [],
});

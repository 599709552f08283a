import { expect } from 'vitest';
import bundledRequirements from '../config/defaults/iteration-requirements.json';
import { guardTable } from '../../test/helpers/guard-table.js';
import { makeLoop } from '../../test/helpers/loops.js';
import { cli, fixture } from '../../test/helpers/project.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const SESSION = String(fixture('session-start-compact.json')['session_id']);
const session = (source: string) => ({ ...fixture('session-start-compact.json'), cwd: P, source });
const quiet = ({ decision }: { decision: { context?: string } }) => expect(decision.context).toBeUndefined();
const idle = { state_version: 1, active_workflow: null };
const rule = { type: 'command', name: 'tests_pass', command: 'npm test' };
const liveLoop =
  (extra: { sessionId?: string; agentId?: string } = { sessionId: SESSION }) =>
  (project: string) =>
    void makeLoop(project, { config: { validationRules: [rule], maxIterations: 7 }, ...extra });
/** A loop that ran and was cancelled by a person: it holds nobody. */
const endedLoop = (project: string) => {
  const id = makeLoop(project, { config: { validationRules: [rule] }, sessionId: SESSION });
  const cancel = cli(['loop', 'cancel', id, '--dir', project]);
  if (cancel.status !== 0) throw new Error(cancel.stderr);
};

guardTable('session-context', {
  valid: [
    {
      name: 'after a compaction: the workflow, the phase, and its gate requirements',
      state: workflowState('feature', '06-implementation'),
      payload: session('compact'),
      expect: 'allow',
      contextIncludes: [
        'continues a feature workflow',
        'The current phase is 06-implementation, in progress',
        'GATE REQUIREMENTS (Phase: 06-implementation):',
        'test_iteration: enabled',
      ],
    },
    {
      name: 'a resumed session too',
      state: workflowState('fix', '01-requirements'),
      payload: session('resume'),
      expect: 'allow',
      contextIncludes: ['GATE REQUIREMENTS (Phase: 01-requirements):'],
    },
    {
      name: 'after /clear too: the conversation is gone, the workflow is not',
      state: workflowState('feature', '06-implementation'),
      payload: session('clear'),
      expect: 'allow',
      contextIncludes: ['continues a feature workflow', 'The current phase is 06-implementation', 'GATE REQUIREMENTS (Phase: 06-implementation):'],
    },
    {
      name: "a fresh start in a project with an active workflow: told as the project's workflow",
      state: workflowState('feature', '06-implementation'),
      payload: session('startup'),
      expect: 'allow',
      contextIncludes: [
        'this project has an active feature workflow',
        'The current phase is 06-implementation',
        'GATE REQUIREMENTS (Phase: 06-implementation):',
      ],
    },
    {
      name: 'a completed phase: the next step, without a block',
      state: (() => {
        const s = workflowState('fix', '01-requirements');
        s['phases']['01-requirements'].status = 'completed';
        s['active_workflow'].phase_status['01-requirements'] = 'completed';
        return s;
      })(),
      payload: session('compact'),
      expect: 'allow',
      contextIncludes: ['`mcp__isdlc__phase_activate` starts the next phase'],
      then: ({ decision }) => expect(decision.context).not.toContain('GATE REQUIREMENTS'),
    },
    { name: 'a fresh start in an idle project: nothing', state: idle, payload: session('startup'), expect: 'allow', then: quiet },
    { name: 'a fresh start with no state file: nothing', payload: session('startup'), expect: 'allow', then: quiet },
    { name: 'no active workflow and no loop after a compaction: nothing', state: idle, payload: session('compact'), expect: 'allow', then: quiet },
    {
      name: 'a fresh start with a live loop of this session: its id, iteration, rule, promise and what holds the turn',
      state: idle,
      setup: liveLoop(),
      payload: session('startup'),
      expect: 'allow',
      contextIncludes: [
        'isdlc loop L-',
        'is live ("Make the tests pass"): iteration 1 of 7, rules tests_pass, completion promise <promise>COMPLETE</promise>',
        'It holds this session',
        '<promise>BLOCKED</promise>',
        '`isdlc loop status`',
      ],
      then: ({ decision }) => expect(decision.context).not.toContain('workflow'),
    },
    {
      name: "a resumed session with another session's loop: said, and that it does not hold this one",
      state: idle,
      setup: liveLoop({ sessionId: 'another-session' }),
      payload: session('resume'),
      expect: 'allow',
      contextIncludes: ['is live', 'bound to another session, so it does not hold this one'],
    },
    {
      name: "a loop of one of this session's subagents",
      state: idle,
      setup: liveLoop({ sessionId: SESSION, agentId: 'a7154de3fc719065c' }),
      payload: session('compact'),
      expect: 'allow',
      contextIncludes: ['It holds a subagent of this session', 'not you'],
    },
    {
      name: 'a loop nobody has claimed, at startup',
      state: idle,
      setup: liveLoop({}),
      payload: session('startup'),
      expect: 'allow',
      contextIncludes: ['No session holds it yet', 'isdlc loop claim L-'],
    },
    {
      name: 'a workflow and a loop after /clear: both',
      state: workflowState('feature', '06-implementation'),
      setup: liveLoop(),
      payload: session('clear'),
      expect: 'allow',
      contextIncludes: ['continues a feature workflow', 'isdlc loop L-', 'iteration 1 of 7'],
    },
    {
      name: 'a loop store whose loops have all ended: nothing at startup',
      state: idle,
      setup: endedLoop,
      payload: session('startup'),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'an unreadable loop store: nothing said, nothing broken',
      state: idle,
      files: { '.isdlc/loop.db': 'not a database\n' },
      payload: session('startup'),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'turned off in config: no workflow context',
      state: workflowState('feature', '06-implementation'),
      files: { '.isdlc/config/iteration-requirements.json': { ...bundledRequirements, gate_requirements_injection: { session_start: false } } },
      payload: session('compact'),
      expect: 'allow',
      then: quiet,
    },
  ],
  invalid: [],
});

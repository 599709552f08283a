import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { makeLoop, readLoop } from '../../test/helpers/loops.js';
import { stop } from '../../test/helpers/payloads.js';
import { cli, fixture } from '../../test/helpers/project.js';

const P = '/project';
const SESSION = String(fixture('stop.json')['session_id']);
const SUB = fixture('subagent-stop.json');
const passes = { type: 'command', name: 'ok', command: ['node', '-e', ''] };
const fails = { type: 'command', name: 'tests', command: ['node', '-e', "console.error('1 failing'); process.exit(1)"] };
let loopId = '';
const loopIn =
  (config: Record<string, unknown>, extra: { sessionId?: string; agentId?: string } = { sessionId: SESSION }) =>
  (project: string) => {
    loopId = makeLoop(project, { config, ...extra });
  };
const loopNow = (project: string) => readLoop(project, loopId);

guardTable('iteration-loop', {
  valid: [
    { name: 'no loop database: nothing to do', payload: stop(P, 'Done.'), expect: 'allow' },
    {
      name: "another session's loop is not ours to answer for",
      setup: loopIn({ validationRules: [fails] }, { sessionId: 'another-session' }),
      payload: stop(P, 'Done.'),
      expect: 'allow',
      then: ({ project }) => expect(loopNow(project).iteration).toBe(1),
    },
    { name: 'a loop nobody has claimed holds no session', setup: loopIn({ validationRules: [fails] }, {}), payload: stop(P, 'Done.'), expect: 'allow' },
    {
      name: 'rules pass and the final message declares COMPLETE: the loop completes, the person is told',
      setup: loopIn({ validationRules: [passes] }),
      payload: stop(P, 'All green.\n\n<promise>COMPLETE</promise>'),
      expect: 'allow',
      then: ({ decision, project }) => {
        expect(decision.systemMessage).toMatch(/completed at iteration 1/);
        expect(loopNow(project)).toMatchObject({ status: 'completed', task: { status: 'completed' } });
      },
    },
    {
      name: 'BLOCKED ends the loop whatever the rules say',
      setup: loopIn({ validationRules: [fails] }),
      payload: stop(P, '<promise>BLOCKED</promise>\nReason: no credentials for the staging database.'),
      expect: 'allow',
      then: ({ decision, project }) => {
        expect(decision.systemMessage).toMatch(/no credentials for the staging database/);
        expect(loopNow(project).status).toBe('blocked');
      },
    },
    {
      name: 'the last iteration failing escalates to the person instead of holding the turn',
      setup: loopIn({ validationRules: [fails], maxIterations: 1 }),
      payload: stop(P, 'Tried.'),
      expect: 'allow',
      then: ({ decision, project }) => {
        expect(decision.systemMessage).toMatch(/handed to you/);
        expect(loopNow(project).status).toBe('escalated');
      },
    },
    {
      name: 'an unreadable loop.db holds nothing, is left byte for byte, and the person is told',
      files: { '.isdlc/loop.db': 'not a database\n' },
      payload: stop(P, 'Done.'),
      expect: 'allow',
      then: ({ decision, project }) => {
        expect(decision.systemMessage).toMatch(/loop\.db is unreadable \(file is not a database\); isdlc leaves it as it is/);
        expect(readFileSync(join(project, '.isdlc/loop.db'), 'utf8')).toBe('not a database\n');
      },
    },
    {
      name: "the main agent's Stop does not answer for a subagent's loop",
      setup: loopIn({ validationRules: [fails] }, { sessionId: String(SUB['session_id']), agentId: String(SUB['agent_id']) }),
      payload: { ...stop(P, 'Done.'), session_id: SUB['session_id'] },
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'a failing rule holds the turn with what to do first, the failure and the iteration; the loop moves on',
      setup: loopIn({ validationRules: [fails], prompt: 'Fix the parser.' }),
      payload: stop(P, 'I think it works now.'),
      expect: 'block',
      reasonIncludes: [
        'isdlc loop L-',
        ': Fix tests (1 failing), then end your turn; iteration 1 of 10 failed.',
        'When all pass, end with <promise>COMPLETE</promise>',
        '<promise>BLOCKED</promise>',
        '`isdlc loop status`',
      ],
      then: ({ project }) =>
        expect(loopNow(project)).toMatchObject({
          iteration: 2,
          stopBlocks: 1,
          history: [{ passed: false, signal: 'CONTINUE', validatedBy: 'hook' }, { validatedAt: null }],
        }),
    },
    {
      name: 'a huge failing output and a long task still make a reason of about 300 characters, with the telling line; `isdlc loop status` has the rest',
      setup: loopIn({
        validationRules: [
          {
            type: 'command',
            name: 'unit tests',
            command: [
              'node',
              '-e',
              "for (let i = 0; i < 5000; i++) console.log('  ok ' + i + ' '.repeat(80) + 'x'); console.error('AssertionError: expected parse(\"1+2\") to equal 3 but got ' + 'x'.repeat(300)); console.log('Tests: 1 failed, 5000 passed'); process.exit(1)",
            ],
          },
          fails,
        ],
        prompt: `Fix the parser. ${'Every detail of the grammar matters. '.repeat(200)}`,
      }),
      payload: stop(P, 'Done, I think.'),
      expect: 'block',
      reasonIncludes: [
        'Fix unit tests (AssertionError: expected parse("1+2") to equal 3 but got',
        ') and 1 more rule, then end your turn; iteration 1 of 10 failed.',
        '`isdlc loop status`',
        '<promise>BLOCKED</promise>',
      ],
      then: ({ decision, project }) => {
        expect(decision.reason!.length).toBeLessThanOrEqual(320);
        expect(decision.reason).not.toContain('Every detail of the grammar');
        const status = cli(['loop', 'status', '--dir', project]);
        expect(status.stdout).toContain('Every detail of the grammar matters.');
        expect(status.stdout).toContain('failing at iteration 1:');
        expect(status.stdout).toContain('AssertionError: expected parse("1+2") to equal 3 but got xxxxxxxx');
        expect(status.stdout).toContain('1 failing');
      },
    },
    {
      name: 'COMPLETE while a rule fails does not count',
      setup: loopIn({ validationRules: [fails] }),
      payload: stop(P, 'Done!\n<promise>COMPLETE</promise>'),
      expect: 'block',
      reasonIncludes: ['does not count while a rule fails'],
    },
    {
      name: 'a promise inside a code fence does not count',
      setup: loopIn({ validationRules: [passes] }),
      payload: stop(P, 'The protocol ends with:\n```\n<promise>COMPLETE</promise>\n```'),
      expect: 'block',
      reasonIncludes: ['End your final message with <promise>COMPLETE</promise> if the task is done', 'passes every rule', 'no completion promise'],
      then: ({ decision }) => expect(decision.reason!.length).toBeLessThanOrEqual(320),
    },
    {
      name: "a subagent's loop holds that subagent at its SubagentStop",
      setup: loopIn({ validationRules: [fails] }, { sessionId: String(SUB['session_id']), agentId: String(SUB['agent_id']) }),
      payload: { ...SUB, cwd: P },
      expect: 'block',
      reasonIncludes: ['Fix tests (1 failing)', 'iteration 1 of 10 failed'],
    },
  ],
});

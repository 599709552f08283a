import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { makeLoop, readLoop } from '../../test/helpers/loops.js';
import { bashPassed } from '../../test/helpers/payloads.js';
import { fixture } from '../../test/helpers/project.js';

const P = '/project';
const SESSION = String(fixture('post-bash.json')['session_id']);
let loopId = '';
const unclaimed = (project: string) => {
  loopId = makeLoop(project);
};
const claimed = (project: string) => {
  loopId = makeLoop(project, { sessionId: 'someone-else' });
};
const marker = () => `Started.\n[isdlc-loop ${loopId} awaiting-session]\n`;
const started = (project: string) => bashPassed(project, 'node .isdlc/bin/isdlc.cjs loop start --rule "npm test" "Fix it"', marker());
/** Shaped like the recorded MCP PostToolUse (post-mcp-legacy.json): the tool's content blocks as tool_response. */
const mcpStarted = (name: string) => (project: string) => ({
  ...fixture('post-mcp-legacy.json'),
  session_id: SESSION,
  cwd: project,
  tool_name: name,
  tool_input: { taskId: 'T-1' },
  tool_response: [{ type: 'text', text: JSON.stringify({ loopId, message: marker() }) }],
});

guardTable('loop-binder', {
  valid: [
    { name: 'an ordinary command output', payload: bashPassed(P, 'ls', 'a.txt\nb.txt'), expect: 'allow' },
    { name: 'a marker without a loop database', payload: bashPassed(P, 'cat notes.txt', '[isdlc-loop L-0123456789 awaiting-session]'), expect: 'allow' },
    {
      name: '`isdlc loop start` output binds the loop to this session, and the agent is told what that means',
      setup: unclaimed,
      payload: started,
      expect: 'allow',
      contextIncludes: ['is now bound to this session', '<promise>BLOCKED</promise>', 'at most 10 iterations'],
      then: ({ project }) => expect(readLoop(project, loopId)).toMatchObject({ sessionId: SESSION, agentId: null }),
    },
    {
      name: 'started inside a subagent: bound to that subagent',
      setup: unclaimed,
      payload: (project) => ({ ...started(project), agent_id: 'a7154de3fc719065c', agent_type: 'software-developer' }),
      expect: 'allow',
      contextIncludes: ['bound to this subagent'],
      then: ({ project }) =>
        expect(readLoop(project, loopId)).toMatchObject({ sessionId: SESSION, agentId: 'a7154de3fc719065c', agentType: 'software-developer' }),
    },
    {
      name: 'the MCP tool iteration_start binds too',
      setup: unclaimed,
      payload: mcpStarted('mcp__isdlc__iteration_start'),
      expect: 'allow',
      then: ({ project }) => expect(readLoop(project, loopId).sessionId).toBe(SESSION),
    },
    {
      name: 'and so does loop_start',
      setup: unclaimed,
      payload: mcpStarted('mcp__isdlc__loop_start'),
      expect: 'allow',
      then: ({ project }) => expect(readLoop(project, loopId).sessionId).toBe(SESSION),
    },
    {
      name: "another server's iteration_start does not",
      setup: unclaimed,
      payload: mcpStarted('mcp__other__iteration_start'),
      expect: 'allow',
      then: ({ project }) => expect(readLoop(project, loopId).sessionId).toBeNull(),
    },
    {
      name: 'another MCP tool echoing the marker does not bind',
      setup: unclaimed,
      payload: mcpStarted('mcp__isdlc__iteration_status'),
      expect: 'allow',
      then: ({ project }) => expect(readLoop(project, loopId).sessionId).toBeNull(),
    },
    {
      name: 'a loop another session owns is never taken over',
      setup: claimed,
      payload: started,
      expect: 'allow',
      contextIncludes: ['was not bound to this session', 'belongs to another session'],
      then: ({ project }) => expect(readLoop(project, loopId).sessionId).toBe('someone-else'),
    },
  ],
  invalid: [],
});

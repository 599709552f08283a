import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashFailed, bashPassed, isdlcToolResult, recorded332, recorded332In } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const PHASE = '11-local-testing';
const AT = '2026-11-26T09:59:26.753Z';
const EARLIER = '2026-11-26T09:59:09.726Z';
// From the recordings: the session, and the subagent that recorded the checks.
const SESSION = String(recorded332('post-mcp-phase-complete.json')['session_id']);
const SUBAGENT = recorded332('post-mcp-constitution-record-subagent.json');
const BY_SUBAGENT = { session: String(SUBAGENT['session_id']), agent_id: String(SUBAGENT['agent_id']), agent_type: String(SUBAGENT['agent_type']) };

type State = Record<string, any>;
const line = (timestamp: string, action: string) => ({ timestamp, agent: 'isdlc', action });

/** A test-run workflow whose first phase `phase_complete` completed at AT. */
function completed(): State {
  const state = workflowState('test-run', '07-testing');
  state['phases'][PHASE] = { status: 'completed', gate_validation: { status: 'passed', passed_at: AT, checks: ['constitutional_validation'] } };
  state['history'] = [line(EARLIER, `Activated phase ${PHASE}`), line(AT, `Completed phase ${PHASE}`)];
  return state;
}

/** The phase in progress, with Article VIII recorded compliant at AT. */
function checked(): State {
  const state = workflowState('test-run', PHASE);
  state['phases'][PHASE].constitutional_validation = {
    status: 'iterating',
    iterations_used: 1,
    article_results: { VIII: { result: 'compliant', at: AT, iteration: 1 } },
    history: [{ article: 'VIII', result: 'compliant', note: null, iteration: 1, at: AT }],
  };
  return state;
}

// Checks an `isdlc constitution record` command made; the shell call's window is its duration back from the
// hook's own time, so these are dated when the table is built, seconds before the hook runs.
const NOW = new Date().toISOString();
const LONG_AGO = new Date(Date.now() - 10 * 60_000).toISOString();
const BASH_SESSION = String(bashPassed(P, 'x', '')['session_id']);
const AGENT_SHELL = { user: 'root', agent_shell: true, sandboxed: false };
const cli = (at: string, extra: State = {}) => ({ result: 'compliant', at, iteration: 1, recorded_with: 'cli', terminal: AGENT_SHELL, ...extra });

/** The phase in progress with Article VIII and IX checked as given (and their history lines). */
function checkedWith(viii: State, ix?: State): State {
  const state = workflowState('test-run', PHASE);
  const results: State = { VIII: viii, ...(ix ? { IX: ix } : {}) };
  state['phases'][PHASE].constitutional_validation = {
    status: 'iterating',
    iterations_used: 1,
    article_results: results,
    history: Object.entries(results).map(([article, entry]) => ({ article, note: null, ...entry })),
  };
  return state;
}

/** A shell call that ran for a minute, as the host reports it; inside a subagent when `agent` is given. */
function shellCall(project: string, failed: boolean, agent?: { agent_id: string; agent_type: string }): Record<string, unknown> {
  const command = 'node .isdlc/bin/isdlc.cjs constitution record --article VIII --result compliant';
  const payload = failed ? bashFailed(project, command, 1, 'Still to be compliant: Article IX') : bashPassed(project, command, 'Article VIII: compliant');
  return { ...payload, ...agent, duration_ms: 60_000 };
}

const WORKER = { agent_id: 'a0f3worker', agent_type: 'environment-builder' };
const articleBy = (state: State, article: string) => state['phases'][PHASE].constitutional_validation.article_results[article]?.by;
const historyBy = (state: State) => state['phases'][PHASE].constitutional_validation.history.map((entry: State) => entry['by'] ?? null);

const unwritten = ({ state }: { state: State }) => expect(state['state_version']).toBe(7);
const nobody = ({ state }: { state: State }) => expect(JSON.stringify(state)).not.toContain('"by"');

guardTable('tool-caller', {
  valid: [
    {
      name: "the main agent's phase_complete: its history line and the completion record get the session",
      state: completed(),
      payload: isdlcToolResult(P, 'phase_complete', { phase: PHASE, next: '07-testing', state_version: 7, at: AT, message: 'Completed.' }),
      expect: 'allow',
      then: ({ state }) => {
        expect(state['phases'][PHASE].gate_validation.by).toEqual({ session: SESSION });
        expect(state['history'][1].by).toEqual({ session: SESSION });
        expect(state['history'][0].by).toBeUndefined();
        expect(state['state_version']).toBe(8);
      },
    },
    {
      name: "a subagent's constitution_record: the article's result and the record's own history get the subagent",
      state: { ...checked(), history: [line(AT, `Recorded Article VIII for ${PHASE}`)] },
      payload: isdlcToolResult(P, 'constitution_record', { phase: PHASE, article: 'VIII', result: 'compliant', at: AT }, 'subagent'),
      expect: 'allow',
      then: ({ state }) => {
        const record = state['phases'][PHASE].constitutional_validation;
        expect(record.article_results.VIII.by).toEqual(BY_SUBAGENT);
        expect(record.history[0].by).toEqual(BY_SUBAGENT);
        expect(state['history'][0].by).toEqual(BY_SUBAGENT);
      },
    },
    {
      name: 'phase_activate and workflow_start: their history line',
      state: { ...workflowState('test-run', PHASE), history: [line(EARLIER, 'Started test-run workflow'), line(AT, `Activated phase ${PHASE}`)] },
      payload: isdlcToolResult(P, 'phase_activate', { phase: PHASE, index: 0, state_version: 7, at: AT }),
      expect: 'allow',
      then: ({ state }) => expect(state['history'].map((entry: State) => entry['by'] ?? null)).toEqual([null, { session: SESSION }]),
    },
    {
      name: 'workflow_cancel: the archived entry',
      state: {
        ...workflowState('test-run', PHASE),
        active_workflow: null,
        workflow_history: [
          { type: 'fix', status: 'completed', completed_at: EARLIER },
          { type: 'test-run', status: 'cancelled', completed_at: AT },
        ],
      },
      payload: isdlcToolResult(P, 'workflow_cancel', { type: 'test-run', status: 'cancelled', at: AT }),
      expect: 'allow',
      then: ({ state }) => expect(state['workflow_history'].map((entry: State) => entry['by'] ?? null)).toEqual([null, { session: SESSION }]),
    },
    {
      name: "phase_review: the review's decision",
      state: (() => {
        const state = workflowState('test-run', PHASE);
        state['active_workflow'].supervised_review = { phase: PHASE, status: 'redo', requested_at: EARLIER, decided_at: AT, decided_by: 'agent' };
        return state;
      })(),
      payload: isdlcToolResult(P, 'phase_review', { phase: PHASE, decision: 'redo', at: AT }),
      expect: 'allow',
      then: ({ state }) => expect(state['active_workflow'].supervised_review.by).toEqual({ session: SESSION }),
    },
    {
      name: 'a read (gate_check) recorded nothing: state is not written',
      state: completed(),
      payload: isdlcToolResult(P, 'gate_check', { phase: PHASE, open: true, checks: [] }),
      expect: 'allow',
      then: unwritten,
    },
    {
      name: 'an answer whose time no record holds (state changed since) is left alone',
      state: completed(),
      payload: isdlcToolResult(P, 'phase_complete', { phase: PHASE, at: '2026-11-26T10:30:00.000Z' }),
      expect: 'allow',
      then: (result) => {
        unwritten(result);
        nobody(result);
      },
    },
    {
      name: 'a refused call (PostToolUseFailure) recorded nothing',
      state: completed(),
      payload: (project) => recorded332In('post-failure-mcp-phase-complete.json', project),
      expect: 'allow',
      then: unwritten,
    },
    {
      name: "another MCP server's tool of the same name is not isdlc's",
      state: completed(),
      payload: { ...isdlcToolResult(P, 'phase_complete', { phase: PHASE, at: AT }), tool_name: 'mcp__other__phase_complete' },
      expect: 'allow',
      then: nobody,
    },
    {
      name: "an isdlc command run in a subagent's shell: the check and its history line get that subagent, marked as found by time",
      state: checkedWith(cli(NOW)),
      payload: (project) => shellCall(project, false, WORKER),
      expect: 'allow',
      then: ({ state }) => {
        const by = { session: BASH_SESSION, ...WORKER, via: 'shell' };
        expect(articleBy(state, 'VIII')).toEqual(by);
        expect(historyBy(state)).toEqual([by]);
      },
    },
    {
      name: 'a failed shell call (PostToolUseFailure) of the main session: its checks get the session, by time',
      state: checkedWith(cli(NOW), cli(NOW)),
      payload: (project) => shellCall(project, true),
      expect: 'allow',
      then: ({ state }) => {
        expect(articleBy(state, 'VIII')).toEqual({ session: BASH_SESSION, via: 'shell' });
        expect(articleBy(state, 'IX')).toEqual({ session: BASH_SESSION, via: 'shell' });
      },
    },
    {
      name: 'a check recorded before the shell call began is not its',
      state: checkedWith(cli(LONG_AGO)),
      payload: (project) => shellCall(project, false, WORKER),
      expect: 'allow',
      then: (result) => {
        unwritten(result);
        nobody(result);
      },
    },
    {
      name: 'a check someone is already named for keeps its recorder',
      state: checkedWith(cli(NOW, { by: { session: 'earlier', agent_id: 'a1reviewer', agent_type: 'qa-engineer' } }), cli(NOW)),
      payload: (project) => shellCall(project, false, WORKER),
      expect: 'allow',
      then: ({ state }) => {
        expect(articleBy(state, 'VIII')).toEqual({ session: 'earlier', agent_id: 'a1reviewer', agent_type: 'qa-engineer' });
        expect(articleBy(state, 'IX')).toEqual({ session: BASH_SESSION, ...WORKER, via: 'shell' });
      },
    },
    {
      name: "a command that saw the project sandboxed did not run in the agent's shell: left alone",
      state: checkedWith(cli(NOW, { terminal: { user: 'dana', agent_shell: false, sandboxed: true } })),
      payload: (project) => shellCall(project, false, WORKER),
      expect: 'allow',
      then: nobody,
    },
    {
      name: "a check made through the MCP tool is its call's to name, not a shell call's",
      state: checkedWith({ result: 'compliant', at: NOW, iteration: 1, recorded_with: 'mcp_tool' }),
      payload: (project) => shellCall(project, false, WORKER),
      expect: 'allow',
      then: nobody,
    },
    {
      name: 'a shell call sent to the background has not run its command yet: nothing is its',
      state: checkedWith(cli(NOW)),
      payload: (project) => ({
        ...shellCall(project, false, WORKER),
        tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: 'b1' },
      }),
      expect: 'allow',
      then: nobody,
    },
    {
      name: "an MCP call's record that already names a recorder keeps it",
      state: (() => {
        const state = checked();
        state['phases'][PHASE].constitutional_validation.article_results.VIII.by = { session: 'first' };
        return state;
      })(),
      payload: isdlcToolResult(P, 'constitution_record', { phase: PHASE, article: 'VIII', result: 'compliant', at: AT }, 'subagent'),
      expect: 'allow',
      then: ({ state }) => {
        const record = state['phases'][PHASE].constitutional_validation;
        expect(record.article_results.VIII.by).toEqual({ session: 'first' });
        expect(record.history[0].by).toEqual(BY_SUBAGENT);
      },
    },
  ],
  invalid: [],
});

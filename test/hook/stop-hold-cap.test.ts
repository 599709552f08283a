// isdlc's own bound on holding the end of a turn, through `isdlc hook --host codex` (Codex ends no turn
// itself however often a Stop hook holds it) with the payloads Codex 0.171.0 sent: a loop whose rules pass
// but whose agent never declares completion holds each Stop; after eight holds with no tool call between
// them the next is let go and the person is told. A tool call between holds starts the count again; a
// subagent's holds are counted apart from its parent's. Nothing is written for it: the activity log has
// every decision.
import { describe, expect, it } from 'vitest';
import { makeLoop, readLoop } from '../helpers/loops.js';
import { decisionOf, fixture, hook, initedProject, type Decision } from '../helpers/project.js';

type State = Record<string, any>;
const CAP = 8;
const recorded = (name: string, dir: string): State => fixture(`codex-0.171.0/${name}.json`, dir);
const SESSION = String(recorded('stop', '/')['session_id']);
/** Passes every time: only the missing completion promise keeps the loop going. */
const PASSES = { type: 'command', name: 'ok', command: ['node', '-e', ''] };

function project(agentId?: string): { dir: string; loopId: string } {
  const dir = initedProject('isdlc-stop-cap-');
  const loopId = makeLoop(dir, { config: { validationRules: [PASSES], maxIterations: 100 }, sessionId: SESSION, ...(agentId ? { agentId } : {}) });
  return { dir, loopId };
}

const send = (dir: string, payload: State): Decision => {
  const run = hook(dir, { ...payload, session_id: SESSION }, ['--host', 'codex']);
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
};
const stopOf = (dir: string, held: boolean) => ({ ...recorded(held ? 'stop-hook-active' : 'stop', dir), last_assistant_message: 'Still on it.' });
const toolCall = (dir: string, agentId?: string) => ({
  ...recorded('pre-bash', dir),
  ...(agentId ? { agent_id: agentId, agent_type: 'software-developer' } : {}),
});

describe("isdlc's bound on holding a turn", () => {
  it('eight holds in a row with nothing done between them, then the turn ends and the person is told; the loop is still there', () => {
    const { dir, loopId } = project();
    const decisions = Array.from({ length: CAP + 1 }, (_, i) => send(dir, stopOf(dir, i > 0)));
    expect(decisions.slice(0, CAP).map((d) => d.kind)).toEqual(Array(CAP).fill('block'));
    expect(decisions[0]!.reason).toContain('completion promise');
    const last = decisions[CAP]!;
    expect(last.kind).toBe('allow');
    expect(last.systemMessage).toContain(`isdlc: the turn was held ${CAP} times in a row with no tool call between the holds, so isdlc let it end`);
    expect(last.systemMessage).toContain('What held it still stands (iteration-loop: ');
    expect(readLoop(dir, loopId)).toMatchObject({ status: 'active', iteration: CAP + 2 });
    // The next turn is held again: the bound lets a turn end, it does not end what held it.
    expect(send(dir, stopOf(dir, false)).kind).toBe('block');
  });

  it('a tool call or a prompt between holds starts the count again', () => {
    const { dir } = project();
    for (let i = 0; i < CAP; i += 1) expect(send(dir, stopOf(dir, i > 0)).kind).toBe('block');
    send(dir, recorded('user-prompt-submit', dir));
    expect(send(dir, stopOf(dir, false)).kind, 'a new prompt is a new turn').toBe('block');
    send(dir, toolCall(dir));
    // The agent worked since the last hold: seven more holds before the next is let go.
    for (let i = 0; i < CAP; i += 1) expect(send(dir, stopOf(dir, true)).kind).toBe('block');
    expect(send(dir, stopOf(dir, true)).kind).toBe('allow');
  });

  it("a subagent's tool call is not its parent's: the parent's holds still count", () => {
    const { dir } = project();
    for (let i = 0; i < CAP; i += 1) send(dir, stopOf(dir, i > 0));
    send(dir, toolCall(dir, 'a-subagent'));
    expect(send(dir, stopOf(dir, true)).kind).toBe('allow');
  });

  it("a subagent's holds at SubagentStop are bounded apart from its parent's", () => {
    const agentId = String(recorded('subagent-stop', '/')['agent_id']);
    const { dir } = project(agentId);
    const subagentStop = () => ({ ...recorded('subagent-stop', dir), last_assistant_message: 'Still on it.' });
    for (let i = 0; i < CAP; i += 1) expect(send(dir, subagentStop()).kind).toBe('block');
    const last = send(dir, subagentStop());
    expect(last.kind).toBe('allow');
    expect(last.systemMessage).toContain(`a subagent's turn (reviewer ${agentId}) was held ${CAP} times in a row`);
  });
});

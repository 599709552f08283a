// Ties a loop to the session that started it: the output of `isdlc loop start` / `loop claim` or of the
// MCP tools iteration_start and loop_start carries a marker, and the PostToolUse payload of that same call
// carries the session id (and, inside a subagent, the subagent's id). Only loops nobody has claimed are bound.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineGuard } from '../engine/guard.js';
import { loadLoop } from '../loop/load.js';

const MARKER_START = '[isdlc-loop L-';
/** isdlc's MCP tools whose answer carries a new loop's marker; another tool that shows one (a status) binds nothing. */
const STARTING_TOOLS = new Set(['iteration_start', 'loop_start']);

export const loopBinder = defineGuard({
  id: 'loop-binder',
  description: 'Binds a loop started by `isdlc loop start`, loop_start or iteration_start to the session (and subagent) that started it.',
  on: { PostToolUse: ['shell', 'isdlc'] },
  check({ event, location, note, log }) {
    const text = event.outcome?.text ?? '';
    if (!event.sessionId || !text.includes(MARKER_START)) return;
    if (event.tool?.kind === 'isdlc' && !STARTING_TOOLS.has(event.tool.operation ?? '')) return;
    if (!existsSync(join(location.isdlcDir, 'loop.db'))) return;
    const results = loadLoop().bindMarkedLoops(location.isdlcDir, text, {
      sessionId: event.sessionId,
      agentId: event.agentId,
      agentType: event.agentType,
    });
    for (const result of results) {
      log({ loop: result.loopId, bound: result.bound, ...(result.problem ? { problem: result.problem } : {}) });
      if (result.bound) {
        note(
          `isdlc loop ${result.loopId} is now bound to ${event.agentId ? 'this subagent' : 'this session'}: when you end your turn its rules run, ` +
            `and the turn ends only when they pass and your final message carries the completion promise, when you declare ` +
            `<promise>BLOCKED</promise> with a reason, or when a limit (at most ${result.maxIterations} iterations) hands it to a person.` +
            (result.approval ? ` ${result.approval}` : ''),
        );
      } else if (result.problem) {
        note(`isdlc loop ${result.loopId} was not bound to this session: ${result.problem}.`);
      }
    }
  },
});

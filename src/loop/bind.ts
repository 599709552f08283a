// Binding a loop to the session that started it. `isdlc loop start` (or `claim`) and the MCP tool
// `iteration_start` print a marker with the loop's id; the PostToolUse hook of that very call carries the
// session id (and the subagent's id inside one), and ties the loop to them. A loop nobody claimed holds
// no session's turn.
import { ruleSandbox } from '../sandbox/os-sandbox.js';
import { approvalNote, unvouched } from './approval.js';
import { LoopStore, type Loop } from './store.js';

export const markerFor = (loopId: string): string => `[isdlc-loop ${loopId} awaiting-session]`;
const MARKER = /\[isdlc-loop (L-[0-9a-f]{10}) awaiting-session\]/g;

export function markedLoops(text: string): string[] {
  return [...new Set([...text.matchAll(MARKER)].map((match) => match[1]!))];
}

export interface BindResult {
  loopId: string;
  bound: boolean;
  problem?: string;
  maxIterations?: number;
  /** Said when its command rules will wait for a person (approval.ts); the hook, outside the host's sandbox, can tell. */
  approval?: string;
}

/** The approval note, asking for the sandbox only when a loop has rules nobody vouched for. */
function approvalOf(loop: Loop): string {
  return unvouched(loop) ? approvalNote(loop, ruleSandbox()).trim() : '';
}

export function bindMarkedLoops(
  isdlcDir: string,
  text: string,
  binding: { sessionId: string; agentId?: string | undefined; agentType?: string | undefined },
): BindResult[] {
  const ids = markedLoops(text);
  if (ids.length === 0) return [];
  const store = LoopStore.open(isdlcDir);
  try {
    return ids.map((loopId) => {
      try {
        const result = store.bind(loopId, binding);
        const approval = result.bound ? approvalOf(result.loop) : '';
        return {
          loopId,
          bound: result.bound,
          maxIterations: result.loop.config.maxIterations,
          ...(result.problem ? { problem: result.problem } : {}),
          ...(approval ? { approval } : {}),
        };
      } catch (error) {
        return { loopId, bound: false, problem: (error as Error).message };
      }
    });
  } finally {
    store.close();
  }
}

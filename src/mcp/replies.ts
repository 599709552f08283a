// What every tool of `isdlc mcp` shares: input messages that name what a field needs, and the two shapes of
// a result. A result is one text item of compact JSON; a refused request is an `isError` result whose one
// line says what is wrong and what would work.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** A request a tool refuses before the store sees it. */
export class ToolInputError extends Error {}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (value === null || typeof value !== 'object') return String(value);
  return 'an object';
}

/** A message that names what the field needs; the SDK appends ` at <field>`. */
export const needs = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `${what} is required` : `${what} is required, got ${shown(issue.input)}`),
});

export const text = (what = 'a string') => z.string(needs(what));

export function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export function refused(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message.replace(/\s*\n\s*/g, ' ').trim() }], isError: true };
}

/**
 * Runs a tool's work: what it returns is the result; an error `expected` knows (a refusal of the store or
 * the workflow) becomes its one-line message, anything else says the tool failed. Never a stack.
 */
export function replier(expected: (error: unknown) => boolean, wording: (message: string) => string = (message) => message) {
  return async (tool: string, work: () => unknown): Promise<CallToolResult> => {
    try {
      return ok(await work());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return refused(wording(expected(error) ? message : `${tool} failed unexpectedly: ${message}`));
    }
  };
}

// Where a `command` rule runs: in the OS sandbox when this machine has one, else only on a person's word
// (the rule text may be the agent's, and the Stop hook and the MCP server that run it have every right
// isdlc has). And what a result inside the sandbox means, so that a failure there reads right.
import { constants } from 'node:os';
import { ruleSandbox, sandboxInvocation, type Invocation, type OsSandboxSupport } from '../../sandbox/os-sandbox.js';
import type { ValidationContext } from '../types.js';

export type Launch = { ok: true; invocation: Invocation; sandboxed: boolean; release: () => void } | { ok: false; message: string };

/** What the person has to do before a rule nobody vouched for runs where there is no sandbox. */
export function approvalNeeded(loopId: string | undefined): string {
  return `waiting for a person's approval: run \`isdlc loop approve ${loopId ?? 'L-…'}\` in your own terminal`;
}

const noop = (): void => {};

/** How to start `command` for this rule, or why it is not started. */
export function launchCommand(command: Invocation, ctx: ValidationContext, support: OsSandboxSupport = ruleSandbox()): Launch {
  if (!support.ok) {
    if (ctx.loop?.approvedByPerson) return { ok: true, invocation: command, sandboxed: false, release: noop };
    return { ok: false, message: `was not run: ${approvalNeeded(ctx.loop?.id)} (no OS sandbox here to keep it off isdlc's files: ${support.why})` };
  }
  try {
    const sandboxed = sandboxInvocation(support.kind, command, ctx.root, ctx.protect);
    return { ok: true, invocation: sandboxed.invocation, sandboxed: true, release: sandboxed.release };
  } catch (error) {
    return { ok: false, message: `was not run: the OS sandbox could not be prepared (${(error as Error).message})` };
  }
}

/**
 * bubblewrap's own complaint, when it could not start the command (it exits 1 and says `bwrap: ...` last):
 * a program that is not there, or a sandbox that would not build.
 */
export function sandboxFailure(exitCode: number | null, outputTail: string): string | undefined {
  if (exitCode !== 1) return undefined;
  const last = outputTail.trim().split('\n').at(-1)?.trim() ?? '';
  if (!last.startsWith('bwrap: ')) return undefined;
  const said = last.slice('bwrap: '.length);
  const exec = /^execvp (.+): (.+)$/.exec(said);
  if (!exec) return `the OS sandbox failed: ${said}`;
  const program = JSON.stringify(exec[1]);
  if (exec[2] === 'No such file or directory') return `program ${program} not found (is it installed and on PATH?)`;
  if (exec[2] === 'Permission denied') return `program ${program} is not executable`;
  return `program ${program}: ${exec[2]}`;
}

const READ_ONLY_NOTE =
  "; it ran in an OS sandbox where isdlc's files (.isdlc/, the agent host's settings, git's config and hooks, the constitution) are read-only";

/** Said after a failing rule that ran into the sandbox's walls, so the agent changes the work instead. */
export function readOnlyNote(outputTail: string): string {
  return /Read-only file system|\bEROFS\b/.test(outputTail) ? READ_ONLY_NOTE : '';
}

/** The few words a held Stop's short reason gives a rule that failed on the sandbox's walls (messages.ts). */
export function readOnlyInBrief(message: string): string | undefined {
  return message.endsWith(READ_ONLY_NOTE) ? "isdlc's files: read-only" : undefined;
}

/** The signal whose death a shell-style exit code reports (128 + n), e.g. SIGKILL for 137. */
export function signalOfExitCode(code: number): string | undefined {
  if (code <= 128) return undefined;
  return Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0];
}

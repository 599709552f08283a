// What an `isdlc constitution record` process can say about who ran it. No hook sees a command run in a
// terminal, so this is all isdlc has about such a check until a shell call's PostToolUse covers it
// (guards/tool-caller.ts). CLAUDECODE=1 proves an agent's shell; its absence proves nothing, since an agent
// can unset it. What does prove something is the sandbox: where the project's settings keep the agent's
// shell from writing isdlc's files, a command that wrote state did not run in that shell.
import { userInfo } from 'node:os';
import { projectSandboxState } from '../hosts/claude-code/protection-level.js';
import type { TerminalClaim } from '../workflow/constitution.js';

export function terminalClaim(root: string, env: NodeJS.ProcessEnv = process.env): TerminalClaim {
  const sandbox = projectSandboxState(root);
  return {
    user: userInfo().username,
    agent_shell: env['CLAUDECODE'] === '1',
    sandboxed: sandbox.sandboxed && sandbox.excludedCommands.length === 0,
  };
}

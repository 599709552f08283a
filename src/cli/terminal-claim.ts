// What an `isdlc constitution record` process can say about who ran it. No hook sees a command run in a
// terminal, so this is all isdlc has about such a check until a shell call's PostToolUse covers it
// (guards/tool-caller.ts). The variable a host sets in its agent's shell (Host.shellMarkers) proves
// an agent's shell; its absence proves nothing, since an agent can unset it. What does prove something is
// the sandbox: where the project's settings keep the agent's shell from writing isdlc's files, a command
// that wrote state did not run in that shell.
import { userInfo } from 'node:os';
import { agentShellHost, protectionOf } from '../hosts/index.js';
import type { TerminalClaim } from '../workflow/constitution.js';

export function terminalClaim(root: string, env: NodeJS.ProcessEnv = process.env): TerminalClaim {
  return {
    user: userInfo().username,
    agent_shell: agentShellHost(env) !== undefined,
    sandboxed: protectionOf(root).everyCommand,
  };
}

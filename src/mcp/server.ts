// dist/mcp.cjs: `isdlc mcp`, the workflow's and the loop's tools for an agent over MCP stdio. It runs
// outside the agent host's sandbox: the agent's way to change isdlc's state.
// Everything is relative to the project root the CLI passes in, never to the working directory: the old
// iteration-loop server read its schema relative to the cwd and failed whenever it was started elsewhere.
// The loop store (SQLite) opens on the first tool call and closes with the connection.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GUARDED } from '../hosts/hook-hosts.js';
import { gateIsolation } from '../hosts/index.js';
import { join, resolve } from 'node:path';
import { loadLoop } from '../loop/load.js';
import type { LoopStore } from '../loop/store.js';
import { MCP_SERVER } from '../config/agent-operations.js';
import { compactCatalogue } from './catalogue.js';
import { LineTransport } from './line-transport.js';
import { registerTools, type ToolContext } from './tools.js';
import { registerWorkflowTools } from './workflow-tools.js';

export interface ServeMcpOptions {
  /** The project root (the directory holding `.isdlc/`), resolved by the caller. */
  root: string;
  version: string;
}

/** Serves the tools over stdin/stdout; resolves when the client closes the connection. */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const root = resolve(options.root);
  let store: LoopStore | undefined;
  let closed = false;
  const context: ToolContext = {
    root,
    // Asked at each run: the host's files outside the project that exist now.
    protect: () => GUARDED.protectedPaths(),
    loop: loadLoop,
    store() {
      if (closed) throw new Error('the MCP connection is closing');
      store ??= loadLoop().LoopStore.open(join(root, '.isdlc'));
      return store;
    },
  };

  const server = new McpServer({ name: MCP_SERVER, version: options.version });
  const catalogue = compactCatalogue(server);
  registerWorkflowTools(server, root, gateIsolation);
  registerTools(server, context);
  catalogue.serve();

  const transport = new LineTransport();
  const done = new Promise<void>((settle) => {
    transport.onclose = () => {
      closed = true;
      store?.close();
      store = undefined;
      settle();
    };
  });
  // The stdio transport does not notice the end of its input by itself: a client that goes away closes stdin.
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  await done;
}

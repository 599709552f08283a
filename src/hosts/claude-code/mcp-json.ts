// Our server in the project's `.mcp.json`, merged beside the user's own servers: added once under the
// name `isdlc`, never replacing a server of that name the user wrote, and taken out again by uninstall
// only while it is still ours.
import { BIN_RELATIVE } from './settings.js';
import { recordOrUndefined } from '../../util/json.js';
import { MCP_SERVER } from '../../config/agent-operations.js';

export const MCP_FILE = '.mcp.json';
/** The name the tools' names (`mcp__isdlc__...`), the permission rules and the hook matchers rest on. */
export const MCP_SERVER_NAME = MCP_SERVER;

/** Claude Code gives stdio servers CLAUDE_PROJECT_DIR; without it the server starts in the project root. */
export function ourMcpServer(): Record<string, unknown> {
  return { type: 'stdio', command: 'node', args: [`\${CLAUDE_PROJECT_DIR:-.}/${BIN_RELATIVE}`, 'mcp'] };
}

export function isOurMcpServer(entry: unknown): boolean {
  const args = recordOrUndefined(entry)?.['args'];
  return Array.isArray(args) && args.some((arg) => typeof arg === 'string' && arg.endsWith(BIN_RELATIVE)) && args.includes('mcp');
}

export class McpConfigShapeError extends Error {}

export function mergeOurMcpServer(config: Record<string, unknown>): { config: Record<string, unknown>; conflict?: string } {
  const servers = config['mcpServers'];
  if (servers !== undefined && !recordOrUndefined(servers)) throw new McpConfigShapeError('"mcpServers" is not an object');
  const current = recordOrUndefined(servers)?.[MCP_SERVER_NAME];
  if (current !== undefined && !isOurMcpServer(current)) {
    return { config, conflict: `a server named "${MCP_SERVER_NAME}" that is not isdlc's is already there; left as it is` };
  }
  return { config: { ...config, mcpServers: { ...recordOrUndefined(servers), [MCP_SERVER_NAME]: ourMcpServer() } } };
}

/** The config without our server; `serversCreated`: init made `mcpServers`, which goes again when left empty. */
export function removeOurMcpServer(config: Record<string, unknown>, serversCreated = false): Record<string, unknown> {
  const servers = recordOrUndefined(config['mcpServers']);
  if (!servers || !isOurMcpServer(servers[MCP_SERVER_NAME])) return config;
  const { [MCP_SERVER_NAME]: _ours, ...rest } = servers;
  if (serversCreated && Object.keys(rest).length === 0) {
    const { mcpServers: _emptied, ...others } = config;
    return others;
  }
  return { ...config, mcpServers: rest };
}

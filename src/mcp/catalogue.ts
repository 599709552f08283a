// tools/list as isdlc serves it. Every session pays for the catalogue, and the SDK's own listing adds two
// things to each tool that tell a model nothing: `$schema` (a default) and `execution: {taskSupport:
// "forbidden"}` (the default when absent). Over two dozen tools that is about a quarter of the bytes, so
// isdlc lists its tools itself, from the same zod shapes the SDK validates calls with.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

type Shape = Record<string, z.ZodType>;

function inputSchemaOf(shape: Shape | undefined): Tool['inputSchema'] {
  const { $schema: _default, ...schema } = z.toJSONSchema(z.object(shape ?? {}), { target: 'draft-7', io: 'input' });
  return schema as Tool['inputSchema'];
}

/**
 * Records each tool registered on `server` from now on; `serve()`, called once they all are, answers
 * tools/list with them in that order.
 */
export function compactCatalogue(server: McpServer): { serve(): void } {
  const tools: Tool[] = [];
  const register = server.registerTool.bind(server);
  server.registerTool = ((name: string, config: { description?: string; inputSchema?: Shape }, callback: never) => {
    tools.push({ name, ...(config.description ? { description: config.description } : {}), inputSchema: inputSchemaOf(config.inputSchema) });
    return register(name, config, callback);
  }) as McpServer['registerTool'];
  return {
    serve() {
      server.registerTool = register;
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    },
  };
}

// A stdio MCP server with two tools, for Codex scenarios that need an MCP call independent of isdlc's:
// `echo` answers with its text, `fail` answers with an error result (`isError`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Answers with the text it is given.', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text: `echo: ${text}` }],
}));
server.registerTool('fail', { description: 'Always fails.', inputSchema: { why: z.string() } }, ({ why }) => ({
  content: [{ type: 'text', text: `failed: ${why}` }],
  isError: true,
}));
await server.connect(new StdioServerTransport());

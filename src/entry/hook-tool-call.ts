// The hook bundle for PreToolUse: `isdlc hook [options]` with the payload on stdin.
import { TOOL_CALL_GUARDS } from '../guards/for-tool-calls.js';
import { withHostGuards } from '../guards/host-guards.js';
import { HOST_TOOL_CALL_GUARDS } from '../hosts/tool-call-guards.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: withHostGuards(TOOL_CALL_GUARDS, HOST_TOOL_CALL_GUARDS), family: 'tool-call' });

// The hook bundle for PostToolUse and PostToolUseFailure: `isdlc hook [options]` with the payload on stdin.
import { TOOL_RESULT_GUARDS } from '../guards/for-tool-results.js';
import { withHostGuards } from '../guards/host-guards.js';
import { HOST_TOOL_RESULT_GUARDS } from '../hosts/tool-result-guards.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: withHostGuards(TOOL_RESULT_GUARDS, HOST_TOOL_RESULT_GUARDS), family: 'tool-result' });

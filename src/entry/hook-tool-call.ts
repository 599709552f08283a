// The hook bundle for PreToolUse: `isdlc hook [options]` with the payload on stdin.
import { TOOL_CALL_GUARDS } from '../guards/for-tool-calls.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: TOOL_CALL_GUARDS, family: 'tool-call' });

// The hook bundle for PostToolUse and PostToolUseFailure: `isdlc hook [options]` with the payload on stdin.
import { TOOL_RESULT_GUARDS } from '../guards/for-tool-results.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: TOOL_RESULT_GUARDS, family: 'tool-result' });

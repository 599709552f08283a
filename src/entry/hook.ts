// The hook bundle: `isdlc hook [options]` with the payload on stdin.
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3));

// The hook bundle for the other events: `isdlc hook [options]` with the payload on stdin.
import { TURN_GUARDS } from '../guards/for-turns.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: TURN_GUARDS, family: 'turn' });

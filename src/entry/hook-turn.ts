// The hook bundle for the other events: `isdlc hook [options]` with the payload on stdin.
import { TURN_GUARDS } from '../guards/for-turns.js';
import { withHostGuards } from '../guards/host-guards.js';
import { HOST_TURN_GUARDS } from '../hosts/turn-guards.js';
import { hookMain } from './hook-main.js';

hookMain(process.argv.slice(3), { guards: withHostGuards(TURN_GUARDS, HOST_TURN_GUARDS), family: 'turn' });

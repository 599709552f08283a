// The hosts' own guards (Host.guards) that react to a tool call, for the tool-call hook bundle; each bundle
// has its own list so it holds only what can judge its events. A test keeps the lists equal to the hosts'.
import type { Guard } from '../engine/guard.js';
import { hookSettingsGuard } from './claude-code/hook-settings-guard.js';

export const HOST_TOOL_CALL_GUARDS: readonly Guard[] = Object.freeze([hookSettingsGuard]);

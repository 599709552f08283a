// The registered hosts' last-resort answers, by host id: what the executable says when none of isdlc's hook
// bundles can run (src/entry/without-bundles.ts). Only this small part of each host is in the executable.
import { CLAUDE_CODE_LAST_RESORT } from './claude-code/last-resort.js';
import type { LastResort } from './host.js';

export const LAST_RESORTS: Readonly<Record<string, LastResort>> = Object.freeze({ 'claude-code': CLAUDE_CODE_LAST_RESORT });

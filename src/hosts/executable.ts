// What the executable (src/entry/isdlc.ts) knows of each registered host, by id: only this small part of a
// host is compiled on every hook call before a bundle loads. The kind of tool a payload names (to pick the
// hook bundle's code cache for that kind of call), and the answer when none of isdlc's bundles can run.
import { CLAUDE_CODE_IN_EXECUTABLE } from './claude-code/in-executable.js';
import { CODEX_IN_EXECUTABLE } from './codex/in-executable.js';
import type { HostInExecutable } from './host.js';

export const EXECUTABLE_HOSTS: Readonly<Record<string, HostInExecutable>> = Object.freeze({
  'claude-code': CLAUDE_CODE_IN_EXECUTABLE,
  codex: CODEX_IN_EXECUTABLE,
});

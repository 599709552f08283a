/** The host a hook call comes from when the registered command names none (`isdlc hook --host NAME`). */
export const DEFAULT_HOST = 'claude-code';

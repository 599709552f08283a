// The Codex versions the end-to-end suite runs, pinned. CURRENT is the one every scenario runs on;
// EARLIER is an older release kept at hand for the version scenarios.
export const CODEX_CURRENT = '0.171.0';
export const CODEX_EARLIER = '0.145.0';

export const CODEX_PINNED: readonly string[] = [CODEX_CURRENT, CODEX_EARLIER];

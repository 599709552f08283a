// The Claude Code versions the end-to-end suite runs, pinned. CURRENT is the one every scenario runs on;
// the others sit just below a boundary where Claude Code reads isdlc's registrations differently
// (docs/claude-code-versions.md): exec-form hooks arrive in 2.1.139, UserPromptExpansion fires from
// 2.1.116, and up to 2.1.100 an unknown event key drops every hook of the file.
export const CURRENT = '2.1.332';
export const BELOW_EXEC_FORM = '2.1.138';
export const BELOW_PROMPT_EXPANSION = '2.1.100';

export const PINNED_VERSIONS: readonly string[] = [CURRENT, BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION];

// Setup and status commands run before or beside a workflow and are never held up by its guards. They
// are recognised only in command form (`/isdlc status`, `isdlc discover`, a prompt that is just
// `setup`), never as a word somewhere in a sentence: "fix the status code", "reinstall the package" and
// "initialize the cache" are ordinary work.

export const SETUP_COMMAND_KEYWORDS: readonly string[] = Object.freeze([
  'discover',
  'constitution',
  'init',
  'setup',
  'configure',
  'configure-cloud',
  'new project',
  'project setup',
  'install',
  'status',
]);

// Built on first use, not when the bundle loads: most hook calls never ask.
let patterns: { commandForm: RegExp; bareCommand: RegExp } | undefined;
function setupPatterns(): { commandForm: RegExp; bareCommand: RegExp } {
  if (patterns) return patterns;
  const keywordPattern = SETUP_COMMAND_KEYWORDS.map((keyword) => keyword.replace(/[-\s]+/g, '[-\\s]+')).join('|');
  patterns = {
    /** `/isdlc status`, `isdlc discover --deep`, `/discover` anywhere in the text. */
    commandForm: new RegExp(`(?:^|[\\s\`'"(])(?:/isdlc\\s+|isdlc\\s+|/)(?:${keywordPattern})(?=$|[\\s\`'").,;:])`, 'i'),
    /** The whole text is the command: `status`, `Project setup.` */
    bareCommand: new RegExp(`^\\s*(?:${keywordPattern})\\s*[.!]?\\s*$`, 'i'),
  };
  return patterns;
}

export function isSetupCommand(text: string | null | undefined): boolean {
  if (!text) return false;
  const { commandForm, bareCommand } = setupPatterns();
  return commandForm.test(text) || bareCommand.test(text);
}

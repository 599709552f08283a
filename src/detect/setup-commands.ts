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

const keywordPattern = SETUP_COMMAND_KEYWORDS.map((keyword) => keyword.replace(/[-\s]+/g, '[-\\s]+')).join('|');

/** `/isdlc status`, `isdlc discover --deep`, `/discover` anywhere in the text. */
const COMMAND_FORM = new RegExp(`(?:^|[\\s\`'"(])(?:/isdlc\\s+|isdlc\\s+|/)(?:${keywordPattern})(?=$|[\\s\`'").,;:])`, 'i');

/** The whole text is the command: `status`, `Project setup.` */
const BARE_COMMAND = new RegExp(`^\\s*(?:${keywordPattern})\\s*[.!]?\\s*$`, 'i');

export function isSetupCommand(text: string | null | undefined): boolean {
  if (!text) return false;
  return COMMAND_FORM.test(text) || BARE_COMMAND.test(text);
}

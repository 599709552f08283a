// What an editor's or database shell's switches ask for, read the way the program reads them: which
// switches are bundled letters, which take the rest of the word (or the next word) as their value. A rule
// that only looks for an `i` somewhere in a word takes `perl -Mstrict` and `perl -Ilib` for an in-place
// edit; this reading does not.

/** Per program: the letters that take a value (the rest of the word, or the next word when none is left). */
const VALUE_LETTERS: Readonly<Record<string, string>> = {
  // perl: -e/-E code, -M/-m module, -I dir, -F pattern, -x dir, -d/-D/-C/-V options; -i takes its suffix
  perl: 'eEMmIFxdDCVi',
  // sed: -e script, -f file, -l length; -i takes its suffix
  sed: 'efli',
  // ruby: -e code, -r lib, -I dir, -C dir, -E encoding, -F pattern, -K code, -x dir, -W level; -i its suffix
  ruby: 'erICEFKxWi',
};
/** Letters whose value must be attached (an optional suffix): a space after them ends the switch. */
const ATTACHED_ONLY: Readonly<Record<string, string>> = { perl: 'iCxdDVl0', sed: 'i', ruby: 'ixW0l' };

/** Whether `args` (the words after the program's name) ask `program` to edit its files in place. */
export function editsInPlace(program: string, args: readonly string[]): boolean {
  const takesValue = VALUE_LETTERS[program];
  if (takesValue === undefined) return false;
  // perl's code can switch in-place editing on itself: `BEGIN { $^I = '' }`.
  if (program === 'perl' && args.some((word) => word.includes('$^I'))) return true;
  const attached = ATTACHED_ONLY[program] ?? '';
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word === '--') return false;
    if (word.startsWith('--')) {
      if (word.startsWith('--in-place')) return true;
      continue;
    }
    // The first word that is no switch is the script or a file: switches end there for perl and ruby.
    if (!word.startsWith('-') || word === '-') {
      if (program === 'sed') continue;
      return false;
    }
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at]!;
      if (letter === 'i') return true;
      if (takesValue.includes(letter)) {
        if (at === word.length - 1 && !attached.includes(letter)) i += 1; // the value is the next word
        break;
      }
      if (/[0-9]/.test(letter)) continue; // -0777, -l0: digits belong to the switch before them
    }
  }
  return false;
}

/** sqlite3 options that take the next word as their value. */
const SQLITE_VALUE_OPTIONS = new Set([
  '-cmd',
  '-init',
  '-separator',
  '-newline',
  '-nullvalue',
  '-vfs',
  '-maxsize',
  '-mmap',
  '-pagecache',
  '-lookaside',
  '-heap',
  '-escape',
  '-key',
  '-hexkey',
]);
/** Dot-commands that only show something (and write no file). */
const SQLITE_READ_DOT =
  /^\.(?:tables|table|schema|fullschema|indexes|indices|headers?|mode|width|help|dbinfo|show|databases|stats|timer|eqp|nullvalue|separator|print|count|lint|changes|version|echo|bail)\b/i;
/** SQL that only reads: a query, EXPLAIN, or a PRAGMA that sets nothing (with an argument, only those that look something up). */
const SQL_READ =
  /^(?:select|with|values|explain|pragma\s+(?:\w+\.)?(?:\w+|(?:table_x?info|index_x?info|index_list|foreign_key_list|foreign_key_check|integrity_check|quick_check)\s*\([^)]*\))\s*$)/i;
/** Inside a query: a CTE's write (`WITH x AS (...) DELETE ...`), or a PRAGMA that acts without an `=`. */
/** And the shell's own functions that write files or run an editor (`SELECT writefile('x', ...)`). */
const SQL_WRITE_WORD =
  /\b(?:insert|update|delete|replace\s+into|drop|create|alter|attach|detach|vacuum|reindex|wal_checkpoint|optimize|incremental_vacuum|writefile|edit|load_extension)\b/i;

/**
 * A statement's text without its string literals, quoted names and comments (`'delete'` is data, not a
 * statement), read the way SQLite reads them: a quote inside a comment opens nothing, and a comment mark
 * inside a literal is data. What is never closed runs to the end, and is kept, to be judged.
 */
function withoutLiterals(sql: string): string {
  let out = '';
  let at = 0;
  while (at < sql.length) {
    const char = sql[at]!;
    const two = sql.slice(at, at + 2);
    const close = char === "'" ? "'" : char === '"' ? '"' : char === '`' ? '`' : char === '[' ? ']' : two === '/*' ? '*/' : two === '--' ? '\n' : undefined;
    if (close === undefined) {
      out += char;
      at += 1;
      continue;
    }
    const end = sql.indexOf(close, at + (close.length === 2 || two === '--' ? 2 : 1));
    if (end < 0) return out + sql.slice(at);
    out += close === "'" ? " '' " : ' ';
    at = end + close.length;
  }
  return out;
}

/** Whether one argument of SQL or dot-commands only reads. */
function sqlReadsOnly(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.startsWith('.')) return trimmed.split('\n').every((line) => line.trim() === '' || SQLITE_READ_DOT.test(line.trim()));
  const statements = withoutLiterals(trimmed)
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return statements.length > 0 && statements.every((s) => SQL_READ.test(s) && !SQL_WRITE_WORD.test(s));
}

/**
 * Whether a `sqlite3` command line only reads its database: every statement it is given on the command line
 * is a query (SELECT, WITH without a write, EXPLAIN, a PRAGMA that sets nothing) or a dot-command that only
 * shows something. Statements from stdin, a script (`-init`, `.read`) or an interactive session cannot be
 * read here, so they count as writes; so do `.import`, `.restore`, `.open`, `.output` and `.shell`.
 * `-readonly` alone is not enough: `.open` and ATTACH reach other files with write access.
 */
export function sqliteReadsOnly(args: readonly string[]): boolean {
  const statements: string[] = [];
  let database: string | undefined;
  let positional = 0;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    const option = word.replace(/^--/, '-');
    // -init runs a file of statements; -A works on an archive (and -Ax writes its files out).
    if (option === '-init' || /^-A/.test(word)) return false;
    if (option === '-cmd') {
      statements.push(args[i + 1] ?? '');
      i += 1;
    } else if (SQLITE_VALUE_OPTIONS.has(option)) i += 1;
    else if (word.startsWith('-')) continue;
    else if (database === undefined) database = word;
    else {
      statements.push(word);
      positional += 1;
    }
  }
  // With no statement after the database, sqlite3 reads its statements from stdin (a pipe, a heredoc).
  return positional > 0 && statements.every(sqlReadsOnly);
}

// Opens `.isdlc/loop.db`: WAL, a busy timeout, and the schema brought up to date exactly once even when
// several processes open a new database at the same moment (the migration runs inside one exclusive
// transaction and re-reads the version there, so the losers of the race find the work done).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MIGRATIONS } from './migrations.js';
import { Db, SqliteMissingError, sqliteCode } from './sqlite.js';

export { Db };

export const LOOP_DB = 'loop.db';
const BUSY_TIMEOUT_MS = 10_000;

export class LoopDbError extends Error {}

/** `asIs`: leave the schema as the file has it (the journal's check reads and puts back a store as it is). */
export function openLoopDb(file: string, options: { readonly?: boolean; asIs?: boolean } = {}): Db {
  if (!options.readonly && file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Db(file, { readonly: options.readonly ?? false, busyTimeoutMs: BUSY_TIMEOUT_MS });
    if (options.readonly) db = readableWhereReadOnly(db, file);
  } catch (error) {
    if (error instanceof SqliteMissingError) throw new LoopDbError(error.message);
    throw withCode(error);
  }
  try {
    if (options.readonly) return db;
    // Switching to WAL takes a lock of its own; the busy timeout covers the race of first opens.
    if (db.pragmaValue('journal_mode') !== 'wal') db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    if (!options.asIs) migrate(db);
  } catch (error) {
    db.close();
    const code = sqliteCode(error);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      // Never repaired or replaced here: the loops recorded in it are the user's data.
      throw new LoopDbError(
        `${file} is unreadable (${(error as Error).message}); isdlc leaves it as it is. Move it aside ` +
          '(for example to loop.db.broken) to start with an empty loop store.',
      );
    }
    throw withCode(error);
  }
  return db;
}

/**
 * `node:sqlite` names every failure ERR_SQLITE_ERROR and puts SQLite's own code in a number: the message
 * gets the code's name too (`… (SQLITE_BUSY)`), so whoever reads it, a person or the checks that tell a
 * read-only folder apart, sees which failure it was.
 */
function withCode(error: unknown): unknown {
  const code = sqliteCode(error);
  if (code && error instanceof Error && !error.message.includes(code)) error.message = `${error.message} (${code})`;
  return error;
}

/**
 * Reading a store in WAL mode needs its `-shm` file, which SQLite cannot create in a folder the reader may
 * not write (`.isdlc/` in the agent's shell, inside the host's sandbox). There a copy in the temp folder
 * is read instead: the same rows as of now, removed when the process ends.
 */
function readableWhereReadOnly(db: Db, file: string): Db {
  try {
    db.pragmaValue('user_version');
    return db;
  } catch (error) {
    if (sqliteCode(error) !== 'SQLITE_CANTOPEN') throw error;
    db.close();
  }
  const { copyFileSync, mkdtempSync, rmSync } = process.getBuiltinModule('node:fs');
  const dir = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), 'isdlc-loop-read-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const copy = join(dir, 'loop.db');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return new Db(copy, { readonly: true, busyTimeoutMs: BUSY_TIMEOUT_MS });
}

export function schemaVersion(db: Db): number {
  return Number(db.pragmaValue('user_version'));
}

function migrate(db: Db): void {
  if (schemaVersion(db) >= MIGRATIONS.length) return;
  db.transaction('EXCLUSIVE', () => {
    const from = schemaVersion(db);
    if (from > MIGRATIONS.length) {
      throw new LoopDbError(`loop.db has schema version ${from}, newer than this isdlc knows (${MIGRATIONS.length}): upgrade isdlc`);
    }
    for (let version = from; version < MIGRATIONS.length; version += 1) db.exec(MIGRATIONS[version]!);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
  });
}

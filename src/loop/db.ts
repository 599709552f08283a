// Opens `.isdlc/loop.db`: WAL, a busy timeout, and the schema brought up to date exactly once even when
// several processes open a new database at the same moment (the migration runs inside one exclusive
// transaction and re-reads the version there, so the losers of the race find the work done).
import type BetterSqlite3 from 'better-sqlite3';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MIGRATIONS } from './migrations.js';

export type Db = BetterSqlite3.Database;

export const LOOP_DB = 'loop.db';
const BUSY_TIMEOUT_MS = 10_000;

/** The compiled SQLite binding: beside the bundle (`.isdlc/bin/` or `dist/`), else wherever npm put it. */
function nativeBinding(): string | undefined {
  if (typeof __dirname !== 'string') return undefined;
  const sibling = join(__dirname, 'better_sqlite3.node');
  return existsSync(sibling) ? sibling : undefined;
}

export class LoopDbError extends Error {}

/** `asIs`: leave the schema as the file has it (the journal's check reads and puts back a store as it is). */
export function openLoopDb(file: string, options: { readonly?: boolean; asIs?: boolean } = {}): Db {
  if (!options.readonly && file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Db;
  try {
    const binding = nativeBinding();
    db = new Database(file, { ...(binding ? { nativeBinding: binding } : {}), ...(options.readonly ? { readonly: true, fileMustExist: true } : {}), timeout: BUSY_TIMEOUT_MS });
    if (options.readonly) db = readableWhereReadOnly(db, file, binding);
  } catch (error) {
    const message = (error as Error).message;
    if (/\.node|binding|ELF|dlopen|NODE_MODULE_VERSION/i.test(message)) {
      throw new LoopDbError(
        `the SQLite module could not be loaded on this machine (${message.split('\n')[0]}). ` +
          'Run `isdlc init` here to install a build for this platform and Node version.',
      );
    }
    throw error;
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (options.readonly) return db;
    // Switching to WAL takes a lock of its own; the busy timeout covers the race of first opens.
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (!options.asIs) migrate(db);
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      // Never repaired or replaced here: the loops recorded in it are the user's data.
      throw new LoopDbError(
        `${file} is unreadable (${(error as Error).message}); isdlc leaves it as it is. Move it aside ` +
          '(for example to loop.db.broken) to start with an empty loop store.',
      );
    }
    throw error;
  }
  return db;
}

/**
 * Reading a store in WAL mode needs its `-shm` file, which SQLite cannot create in a folder the reader may
 * not write (`.isdlc/` in the agent's shell, inside the host's sandbox). There a copy in the temp folder
 * is read instead: the same rows as of now, removed when the process ends.
 */
function readableWhereReadOnly(db: Db, file: string, binding: string | undefined): Db {
  try {
    db.pragma('user_version', { simple: true });
    return db;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_CANTOPEN') throw error;
    db.close();
  }
  const { copyFileSync, mkdtempSync, rmSync } = process.getBuiltinModule('node:fs');
  const dir = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), 'isdlc-loop-read-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const copy = join(dir, 'loop.db');
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return new Database(copy, { ...(binding ? { nativeBinding: binding } : {}), readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

export function schemaVersion(db: Db): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function migrate(db: Db): void {
  if (schemaVersion(db) >= MIGRATIONS.length) return;
  db.exec('BEGIN EXCLUSIVE');
  try {
    const from = schemaVersion(db);
    if (from > MIGRATIONS.length) {
      throw new LoopDbError(`loop.db has schema version ${from}, newer than this isdlc knows (${MIGRATIONS.length}): upgrade isdlc`);
    }
    for (let version = from; version < MIGRATIONS.length; version += 1) db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}


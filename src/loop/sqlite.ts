// The SQLite that ships with Node (`node:sqlite`), as the loop store uses it: no compiled module of our
// own, so nothing in the package or in `.isdlc/bin/` is tied to one Node version or one platform.
//
// Node still marks the module experimental and says so on stderr when it is first loaded. That line would
// reach a hook's output or a person's terminal on every loop command, so it is dropped here, and only it.
import type { DatabaseSync } from 'node:sqlite';
import { MIN_NODE } from '../util/node-version.js';

type SqliteModule = typeof import('node:sqlite');

let loaded: SqliteModule | undefined;

/** Thrown where this Node has no `node:sqlite` (before 22.13 it is missing or behind a flag). */
export class SqliteMissingError extends Error {}

function sqliteModule(): SqliteModule {
  if (loaded) return loaded;
  // Kept to be put back as it was; called with `process` as its `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /SQLite/i.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    loaded = process.getBuiltinModule('node:sqlite');
  } catch {
    loaded = undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  if (!loaded) {
    throw new SqliteMissingError(`isdlc's loop store needs the SQLite built into Node.js ${MIN_NODE} or later; this is Node.js ${process.versions.node}`);
  }
  return loaded;
}

/** SQLite's primary result codes isdlc tells apart (https://sqlite.org/rescode.html). */
const CODES: Readonly<Record<number, string>> = { 5: 'SQLITE_BUSY', 8: 'SQLITE_READONLY', 11: 'SQLITE_CORRUPT', 14: 'SQLITE_CANTOPEN', 26: 'SQLITE_NOTADB' };

/** The SQLite result code of an error `node:sqlite` threw, by name (`SQLITE_BUSY`), when it is one isdlc tells apart. */
export function sqliteCode(error: unknown): string | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? CODES[errcode & 0xff] : undefined;
}

type Row = Record<string, unknown>;

export interface Statement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  /** The first row, or undefined; the caller says what a row of its query holds. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface OpenOptions {
  readonly?: boolean;
  /** How long a statement waits for another connection's lock before it fails with SQLITE_BUSY. */
  busyTimeoutMs: number;
}

/** One connection: its file, how it was opened, and transactions that nest as savepoints. */
export class Db {
  readonly name: string;
  readonly readonly: boolean;
  readonly memory: boolean;
  private readonly db: DatabaseSync;
  private depth = 0;
  private closed = false;

  constructor(file: string, options: OpenOptions) {
    const { DatabaseSync } = sqliteModule();
    this.name = file;
    this.readonly = options.readonly ?? false;
    this.memory = file === ':memory:';
    this.db = new DatabaseSync(file, { readOnly: this.readonly });
    this.db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Every transaction goes through transaction() below (`isTransaction` is newer than Node 22.13). */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  /** A pragma's single value (`PRAGMA user_version` → 3). */
  pragmaValue(name: string): unknown {
    const row = this.db.prepare(`PRAGMA ${name}`).get() as Row | undefined;
    return row ? Object.values(row)[0] : undefined;
  }

  /**
   * Runs `work` in one transaction that takes its lock as `mode` says (IMMEDIATE: the write lock before
   * anything is read); inside another it is a savepoint. A throw rolls back what `work` did and is rethrown.
   */
  transaction<T>(mode: 'DEFERRED' | 'IMMEDIATE' | 'EXCLUSIVE', work: () => T): T {
    const nested = this.inTransaction;
    const savepoint = `isdlc_${this.depth}`;
    this.db.exec(nested ? `SAVEPOINT ${savepoint}` : `BEGIN ${mode}`);
    this.depth += 1;
    try {
      const result = work();
      this.db.exec(nested ? `RELEASE ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      try {
        this.db.exec(nested ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
      } catch {
        // SQLite had rolled back already (some errors end the transaction themselves)
      }
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

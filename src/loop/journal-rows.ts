// The loop store in isdlc's journal (src/integrity/journal.ts). What decides whether an agent may stop is the
// loops table (status, iteration, limits, who set the rules) and the tasks its loops work on: after each
// write transaction isdlc records those rows, and a check that finds them changed by someone else puts them
// back (into a new store, when the store itself was removed or emptied). The other tables (iterations,
// checkpoints, activity) are history: a change there is not undone (docs/tamper-evidence.md).
import { basename, dirname } from 'node:path';
import { fileStamp, hasJournal, updateJournal, writeCopy } from '../integrity/journal.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { LoopRows } from '../integrity/loop-rows.js';
import { LOOP_DB, openLoopDb, schemaVersion, type Db } from './db.js';
import { MIGRATIONS } from './migrations.js';

type Row = Record<string, unknown>;

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}

/**
 * What the journal keeps of the store: the loop rows, and what decides how a write behaves (the schema's
 * triggers, views, indexes and tables, and the schema version). A trigger planted by the agent would
 * otherwise rewrite the loop rows inside isdlc's own next write, which the journal would take as isdlc's.
 */
interface LoopSnapshot {
  rows: Row[];
  /** The tasks the loops work on (a Stop reads its loop's task); absent in copies written before them. */
  tasks?: Row[];
  schema: SchemaObject[];
  version: number;
}

function schemaOf(db: Db): SchemaObject[] {
  // SQLite's own objects (autoindexes, sqlite_sequence) have no SQL or are not for anyone to drop.
  return db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name")
    .all() as SchemaObject[];
}

export function loopRowsOf(db: Db): string {
  const snapshot: LoopSnapshot = {
    rows: db.prepare('SELECT * FROM loops ORDER BY id').all() as Row[],
    tasks: db.prepare('SELECT * FROM tasks WHERE id IN (SELECT task_id FROM loops) ORDER BY id').all() as Row[],
    schema: schemaOf(db),
    version: schemaVersion(db),
  };
  return JSON.stringify(snapshot);
}

/** A copy from before the schema was kept is the loop rows alone (an array). */
function parseSnapshot(text: string): LoopSnapshot | { rows: Row[]; tasks?: undefined; schema?: undefined; version?: undefined } {
  const parsed = JSON.parse(text) as LoopSnapshot | Row[];
  return Array.isArray(parsed) ? { rows: parsed } : parsed;
}

/** Whether the store as it is now (`now`, from loopRowsOf) is what the journal's copy (`good`) records. */
export function sameLoopSnapshot(now: string, good: string): boolean {
  if (now === good) return true;
  try {
    const a = parseSnapshot(now);
    const b = parseSnapshot(good);
    if (JSON.stringify(a.rows) !== JSON.stringify(b.rows)) return false;
    if (b.tasks !== undefined && JSON.stringify(a.tasks) !== JSON.stringify(b.tasks)) return false;
    if (b.schema === undefined) return true; // an older copy judged the rows only
    // isdlc's own migration moved the schema on since the copy was written.
    if (a.version === MIGRATIONS.length && b.version !== undefined && b.version < a.version) return true;
    return a.version === b.version && JSON.stringify(a.schema) === JSON.stringify(b.schema);
  } catch {
    return false;
  }
}

/** The project root when `db` is a project's `.isdlc/loop.db` that keeps a journal. */
function journalRootOf(file: string): string | undefined {
  if (basename(file) !== LOOP_DB || basename(dirname(file)) !== ISDLC_DIR) return undefined;
  const root = dirname(dirname(file));
  return hasJournal(root) ? root : undefined;
}

/** Connections that wrote: closing one checkpoints the write-ahead log, which moves the files' stamps. */
const wrote = new WeakSet<Db>();

function record(file: string, rows: string): void {
  const root = journalRootOf(file);
  if (!root) return;
  const rel = `${ISDLC_DIR}/${LOOP_DB}`;
  updateJournal(root, (index) => {
    writeCopy(root, rel, rows);
    index.files[rel] = { stamp: fileStamp(root, rel), copy: true };
  });
}

/**
 * Runs `work` as one `BEGIN IMMEDIATE` transaction (the write lock is taken before anything is read), and
 * records the loop rows it left as isdlc's own.
 */
export function immediate<T>(db: Db, work: () => T): T {
  const result = db.transaction('IMMEDIATE', work);
  recordLoopRows(db);
  return result;
}

/** After isdlc wrote to the store: its loop rows and the files' stamps become what the check expects. */
export function recordLoopRows(db: Db): void {
  if (db.inTransaction || db.memory || db.readonly) return;
  wrote.add(db);
  record(db.name, loopRowsOf(db));
}

/** Closes a connection; when it wrote, records the rows again with the stamps the closing left. */
export function closeRecorded(db: Db): void {
  if (!db.open) return;
  const rows = wrote.has(db) ? loopRowsOf(db) : undefined;
  db.close();
  if (rows !== undefined) record(db.name, rows);
}

const DROP_ORDER = ['trigger', 'view', 'index', 'table'];
const key = (object: SchemaObject): string => `${object.type} ${object.name}`;

/** Puts the schema back as the copy records it: objects the agent added or changed go, missing ones return. */
function restoreSchema(db: Db, good: SchemaObject[]): void {
  const wanted = new Map(good.map((object) => [key(object), object.sql]));
  const present = schemaOf(db);
  const gone = present.filter((object) => wanted.get(key(object)) !== object.sql);
  gone.sort((a, b) => DROP_ORDER.indexOf(a.type) - DROP_ORDER.indexOf(b.type));
  for (const object of gone) db.exec(`DROP ${object.type.toUpperCase()} IF EXISTS "${object.name.replace(/"/g, '""')}"`);
  const have = new Set(schemaOf(db).map(key));
  const missing = good.filter((object) => !have.has(key(object)));
  missing.sort((a, b) => DROP_ORDER.indexOf(b.type) - DROP_ORDER.indexOf(a.type));
  for (const object of missing) db.exec(object.sql);
}

/** Each row as recorded: updated where its id is, inserted where it is not (other rows are left). */
function putRows(db: Db, table: 'loops' | 'tasks', rows: Row[]): void {
  const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((column) => column.name);
  const quoted = columns.map((name) => `"${name}"`);
  const insert = db.prepare(`INSERT INTO ${table} (${quoted.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const update = db.prepare(`UPDATE ${table} SET ${quoted.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`);
  const values = (row: Row): unknown[] => columns.map((name) => row[name] ?? null);
  for (const row of rows) if (update.run(...values(row), row['id']).changes === 0) insert.run(...values(row));
}

function restoreRows(db: Db, snapshot: ReturnType<typeof parseSnapshot>): void {
  const good = snapshot.rows;
  // Rows the agent added may have history hanging off them; the history stays, the loop row goes.
  db.exec('PRAGMA foreign_keys = OFF');
  try {
    db.transaction('IMMEDIATE', () => {
      // First the schema: a planted trigger must not fire on the rows being put back, and a dropped table
      // must be there again before its rows are.
      if (snapshot.schema) restoreSchema(db, snapshot.schema);
      // The tasks first: a loop row names its task.
      if (snapshot.tasks) putRows(db, 'tasks', snapshot.tasks);
      const keep = new Set(good.map((row) => String(row['id'])));
      for (const { id } of db.prepare('SELECT id FROM loops').all() as { id: string }[])
        if (!keep.has(id)) db.prepare('DELETE FROM loops WHERE id = ?').run(id);
      putRows(db, 'loops', good);
    });
    if (snapshot.version !== undefined && schemaVersion(db) !== snapshot.version) db.exec(`PRAGMA user_version = ${snapshot.version}`);
  } finally {
    db.exec('PRAGMA foreign_keys = ON');
  }
}

/** For the check: read and put back the loop rows of a store file, each with a connection of its own. */
export const loopRows: LoopRows = {
  snapshot(file) {
    // As the file is: a migration here would run again over a version the agent set back.
    const db = openLoopDb(file, { asIs: true });
    try {
      return loopRowsOf(db);
    } finally {
      db.close();
    }
  },
  same: sameLoopSnapshot,
  restore(file, goodRows) {
    const snapshot = parseSnapshot(goodRows);
    // A copy that keeps the schema puts it back itself; an older one leaves that to the migration.
    const db = openLoopDb(file, { asIs: snapshot.schema !== undefined });
    try {
      restoreRows(db, snapshot);
    } finally {
      db.close();
    }
  },
};

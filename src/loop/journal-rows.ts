// The loop store in isdlc's journal (src/protect/journal.ts). What decides whether an agent may stop is the
// loops table (status, iteration, limits, who set the rules): after each write transaction isdlc records
// those rows, and a check that finds them changed by someone else puts them back. The other tables
// (iterations, checkpoints, activity) are history: a change there is not undone (docs/tamper-evidence.md).
import { basename, dirname } from 'node:path';
import { fileStamp, hasJournal, updateJournal, writeCopy } from '../protect/journal.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { LoopRows } from '../protect/tamper-check.js';
import { LOOP_DB, openLoopDb, type Db } from './db.js';

type Row = Record<string, unknown>;

export function loopRowsOf(db: Db): string {
  return JSON.stringify(db.prepare('SELECT * FROM loops ORDER BY id').all());
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

function restoreRows(db: Db, goodRows: string): void {
  const good = JSON.parse(goodRows) as Row[];
  const columns = (db.prepare('PRAGMA table_info(loops)').all() as { name: string }[]).map((column) => column.name);
  const quoted = columns.map((name) => `"${name}"`);
  const insert = db.prepare(`INSERT INTO loops (${quoted.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const update = db.prepare(`UPDATE loops SET ${quoted.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`);
  const values = (row: Row): unknown[] => columns.map((name) => row[name] ?? null);
  // Rows the agent added may have history hanging off them; the history stays, the loop row goes.
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const keep = new Set(good.map((row) => String(row['id'])));
      for (const { id } of db.prepare('SELECT id FROM loops').all() as { id: string }[]) if (!keep.has(id)) db.prepare('DELETE FROM loops WHERE id = ?').run(id);
      for (const row of good) if (update.run(...values(row), row['id']).changes === 0) insert.run(...values(row));
    }).immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/** For the check: read and put back the loop rows of a store file, each with a connection of its own. */
export const loopRows: LoopRows = {
  snapshot(file) {
    const db = openLoopDb(file);
    try {
      return loopRowsOf(db);
    } finally {
      db.close();
    }
  },
  restore(file, goodRows) {
    const db = openLoopDb(file);
    try {
      restoreRows(db, goodRows);
    } finally {
      db.close();
    }
  },
};

// The loop store (`.isdlc/loop.db`) is judged by its loop rows, not its bytes: SQLite rewrites pages of its
// own. Reading and putting back those rows needs SQLite, which lives in the loop bundle; whoever runs a
// check passes this in, and it is loaded only when that file changed.
export interface LoopRows {
  snapshot(dbFile: string): string;
  /** Whether a snapshot is what the journal's copy records. */
  same(now: string, good: string): boolean;
  restore(dbFile: string, goodRows: string): void;
}

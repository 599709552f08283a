// dist/loop.cjs: the loop's API for the hook, the CLI and the MCP server. Run with `--validate` it
// validates the request on stdin as a Stop does, on the validation worker (validate-in-worker.ts), and
// prints the report; with `--probe DIR` it tells `isdlc doctor` whether SQLite loads on this machine and
// what the loop store in DIR holds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOP_DB, openLoopDb } from '../loop/db.js';
import { VALIDATE_FLAG, validateInWorker, type ValidationRequest } from '../loop/validate-in-worker.js';

export * from '../loop/api.js';

function validateFromStdin(): void {
  const request = JSON.parse(readFileSync(0, 'utf8')) as ValidationRequest;
  process.stdout.write(JSON.stringify(validateInWorker(request)));
}

/** Read only: the store is opened read-only, and not at all when there is none. */
function probe(isdlcDir: string): void {
  const memory = openLoopDb(':memory:');
  const sqlite = String((memory.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
  memory.close();
  const file = join(isdlcDir, LOOP_DB);
  const out: Record<string, unknown> = { sqlite, store: existsSync(file) ? 'present' : 'absent' };
  if (existsSync(file)) {
    try {
      const db = openLoopDb(file, { readonly: true });
      try {
        out['live'] = Number((db.prepare("SELECT count(*) AS n FROM loops WHERE status = 'active'").get() as { n: number }).n);
        out['unclaimed'] = Number((db.prepare("SELECT count(*) AS n FROM loops WHERE status = 'active' AND session_id IS NULL").get() as { n: number }).n);
      } finally {
        db.close();
      }
    } catch (error) {
      throw new Error(`${file} cannot be read: ${(error as Error).message}`, { cause: error });
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (require.main === module && process.argv[2] === '--probe') {
  try {
    probe(process.argv[3] ?? '.isdlc');
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ problem: (error as Error).message.split('\n')[0] })}\n`);
    process.exit(1);
  }
} else if (require.main === module && process.argv[2] === VALIDATE_FLAG) {
  validateFromStdin();
  process.exit(0);
}

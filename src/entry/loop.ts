// dist/loop.cjs: the loop's API for the hook, the CLI and the MCP server. Run directly with `--validate`
// it is the Stop hook's validation child (validate-in-child.ts); with `--probe DIR` it tells `isdlc doctor`
// whether SQLite loads on this machine and what the loop store in DIR holds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOP_DB, openLoopDb } from '../loop/db.js';
import { validate } from '../loop/validate.js';
import { VALIDATE_FLAG, type ChildRequest } from '../loop/validate-in-child.js';

export * from '../loop/api.js';

async function validateChild(): Promise<void> {
  const request = JSON.parse(readFileSync(0, 'utf8')) as ChildRequest;
  const report = await validate(request.rules, request.context, { deadline: request.deadline });
  process.stdout.write(JSON.stringify(report));
}

/** Read only: the store is opened read-only, and not at all when there is none. */
function probe(isdlcDir: string): void {
  const memory = openLoopDb(':memory:');
  const sqlite = String(memory.prepare('SELECT sqlite_version() AS v').pluck().get());
  memory.close();
  const file = join(isdlcDir, LOOP_DB);
  const out: Record<string, unknown> = { sqlite, store: existsSync(file) ? 'present' : 'absent' };
  if (existsSync(file)) {
    try {
      const db = openLoopDb(file, { readonly: true });
      try {
        out['live'] = Number(db.prepare("SELECT count(*) FROM loops WHERE status = 'active'").pluck().get());
        out['unclaimed'] = Number(db.prepare("SELECT count(*) FROM loops WHERE status = 'active' AND session_id IS NULL").pluck().get());
      } finally {
        db.close();
      }
    } catch (error) {
      throw new Error(`${file} cannot be read: ${(error as Error).message}`);
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
  validateChild().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}

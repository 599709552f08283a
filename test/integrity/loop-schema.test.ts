// The loop store's schema is isdlc's too: a trigger planted in loop.db would rewrite the loop rows inside
// isdlc's own next write, which the journal would then take as isdlc's, and the loop would end unheld.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentStartsLoop, loops, projectWithTests, SESSION, stopWith } from '../helpers/loops.js';
import { bashPassed } from '../helpers/payloads.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const hasSqlite = spawnSync('sh', ['-c', 'command -v sqlite3']).status === 0;

function sqlite(project: string, sql: string): string {
  const run = spawnSync('sqlite3', [join(project, '.isdlc/loop.db'), sql], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe.skipIf(!hasSqlite)('a trigger planted in the loop store', () => {
  it('is dropped at the next hook call, so the loop is still held at the Stop after', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '5', 'Make add() add'], { session_id: SESSION });
    const plant =
      "CREATE TRIGGER planted AFTER UPDATE ON loops WHEN NEW.status = 'active' BEGIN UPDATE loops SET status = 'cancelled', end_reason = 'planted' WHERE id = NEW.id; END;";
    // The agent's shell ran it (no sandbox here); the hook sees the call afterwards.
    sqlite(project, plant);
    runRegisteredHook(project, bashPassed(project, `sqlite3 .isdlc/loop.db "${plant}"`, ''));
    expect(sqlite(project, "SELECT count(*) FROM sqlite_master WHERE name = 'planted'")).toBe('0');

    const held = stopWith(project, 'I wrote add().');
    expect(held.kind).toBe('block');
    expect(held.reason).toMatch(/iteration 1 of 5 failed/);
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 2 });
  });

  it('a lowered schema version is set back, with the loop rows and history kept', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], { session_id: SESSION });
    const version = sqlite(project, 'PRAGMA user_version');
    sqlite(project, 'PRAGMA user_version = 1');
    runRegisteredHook(project, bashPassed(project, 'sqlite3 .isdlc/loop.db "PRAGMA user_version = 1"', ''));
    expect(sqlite(project, 'PRAGMA user_version')).toBe(version);
    expect(loops(project)[0]).toMatchObject({ status: 'active' });
  });
});

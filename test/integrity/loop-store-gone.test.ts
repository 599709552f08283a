// Without a sandbox, the agent can remove, move or empty the loop store. A loop isdlc knew about is not
// ended by that: the journal holds its rows, and the Stop of its session is still held.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentStartsLoop, projectWithTests, SESSION, stopWith } from '../helpers/loops.js';
import { lastActivity, withoutSandbox } from '../helpers/project.js';

const routes: [string, (db: string) => void][] = [
  ['removed', (db) => rmSync(db)],
  ['removed with its WAL', (db) => ['', '-wal', '-shm'].forEach((side) => rmSync(`${db}${side}`, { force: true }))],
  ['moved away', (db) => renameSync(db, `${db}.away`)],
  ['emptied', (db) => writeFileSync(db, '')],
];

describe.each(routes)('the loop store %s', (_how, act) => {
  it("still holds the Stop of the loop's session", () => {
    const project = withoutSandbox(projectWithTests());
    agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '5', 'Make add() add'], { session_id: SESSION });
    const first = stopWith(project, 'Working on it.');
    expect(first.kind, JSON.stringify(first)).toBe('block');
    act(join(project, '.isdlc/loop.db'));
    const after = stopWith(project, 'Done, I think.');
    expect(after.kind, JSON.stringify(lastActivity(project))).toBe('block');
    expect(after.reason).toMatch(/^isdlc loop L-[0-9a-f]{10}: Fix npm test/);
  });
});

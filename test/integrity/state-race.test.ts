// Without a sandbox, a process of the agent's can replace the state file at any moment, also while an isdlc
// command holds the state lock and writes. Whatever the timing, what isdlc records as its own write (the
// journal's copy) is never the forger's content, and the next check puts isdlc's state back.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPath } from '../../src/integrity/journal.js';
import { bashPassed } from '../helpers/payloads.js';
import { cli, hook, initedProject, withoutSandbox } from '../helpers/project.js';

const TRIES = 50;

/** How the forger puts its content in: a new file renamed over the old one, or the same file written over. */
const WRITES: [string, string][] = [
  ['renaming a new file over it', `const t = process.argv[1] + '.forge' + (i++ % 2); fs.writeFileSync(t, forged); fs.renameSync(t, process.argv[1]);`],
  ['writing over it in place', `i++; fs.writeFileSync(process.argv[1], forged);`],
];

describe.each(WRITES)('a writer racing isdlc over the state file, %s', (_how, write) => {
  it(`never gets its content recorded as isdlc's, in ${TRIES} tries`, async () => {
    const dir = withoutSandbox(initedProject('isdlc-race-'));
    const state = join(dir, '.isdlc/state.json');
    // Swaps a forged state in, over and over, as fast as it can (a new file renamed over the old one).
    const forger = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const s = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
         const forged = JSON.stringify({ ...s, forged: 'by the agent', state_version: 999 });
         let i = 0; for (;;) { ${write} }`,
        state,
      ],
      { stdio: 'ignore' },
    );
    const journaled: string[] = [];
    const refused: string[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < TRIES; i += 1) {
        for (const args of [
          ['workflow', 'start', 'feature', '--description', `try ${i}`],
          ['workflow', 'cancel', '--reason', 'again'],
        ]) {
          const run = cli([...args, '--dir', dir]);
          if (run.status !== 0) refused.push(run.stderr.trim().split('\n')[0]!);
          const copy = readFileSync(copyPath(dir, '.isdlc/state.json'), 'utf8');
          if (copy.includes('forged')) journaled.push(`${args.join(' ')} (try ${i})`);
        }
      }
    } finally {
      forger.kill('SIGKILL');
    }
    expect(journaled, 'writes whose journal copy holds the forger content').toEqual([]);
    // The forger won some reads (those writes gave up or were refused with a reason), not the record.
    for (const line of refused) expect(line).toMatch(/^isdlc: /);
    hook(dir, bashPassed(dir, 'ls', ''));
    expect(readFileSync(state, 'utf8')).not.toContain('forged');
  }, 60_000);
});

// `npm run demo`: makes a throw-away project, sets isdlc up in it, starts a feature workflow and replays
// a recorded-style agent session through the hook engine, printing each decision and why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'dist/isdlc.cjs');
const session = join(repo, 'demo/feature-session.jsonl');
const project = mkdtempSync(join(tmpdir(), 'isdlc-demo-'));
writeFileSync(join(project, 'README.md'), '# shop\nA demo project for isdlc.\n');

const isdlc = (...args) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
const say = (text) => process.stdout.write(`\n== ${text}\n`);

say(`isdlc init ${project}`);
process.stdout.write(isdlc('init', project));
say('isdlc workflow start feature --description "Export orders as CSV"');
process.stdout.write(isdlc('workflow', 'start', 'feature', '--description', 'Export orders as CSV', '--dir', project));
say(`isdlc replay demo/feature-session.jsonl (each line is one hook call, as Claude Code would send it)`);
process.stdout.write(isdlc('replay', session, '--dir', project));
say('Where to look next');
process.stdout.write(
  `  the project:        ${project}\n` +
    `  every decision:     ${join(project, '.isdlc/hook-activity.log')}\n` +
    `  its status:         node ${bin} status --dir ${project}\n` +
    `  check the install:  node ${bin} doctor ${project}\n`,
);

// `npm run demo`: makes a throw-away project, sets isdlc up in it, starts a feature workflow and replays
// a recorded-style agent session through the hook engine, printing each decision and why; then runs an
// iteration loop held by the Stop hook until the project's tests pass.
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
say('An iteration loop: the agent may not end its turn until `npm test` passes and it declares COMPLETE');
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, scripts: { test: 'node test.js' } }, null, 2));
writeFileSync(
  join(project, 'test.js'),
  "if (require('./add.js')(1, 2) !== 3) { console.error('add(1, 2) should be 3'); process.exit(1); }\nconsole.log('1 passing');\n",
);
writeFileSync(join(project, 'add.js'), 'module.exports = (a, b) => a - b;\n');
process.stdout.write(isdlc('loop', 'start', '--dir', project, '--session', 'demo-session', '--rule', 'npm test', 'Make add() add'));
const stop = (message) => {
  const payload = { session_id: 'demo-session', cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: message };
  const out = execFileSync(process.execPath, [bin, 'hook'], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    env: { ...process.env, CLAUDE_PROJECT_DIR: project },
  });
  const answer = out.trim() ? JSON.parse(out) : {};
  process.stdout.write(`\n-- the agent stops, saying: ${JSON.stringify(message)}\n`);
  process.stdout.write(answer.decision === 'block' ? `   held; the agent is told:\n${answer.reason.replace(/^/gm, '     | ')}\n` : '   the turn ends\n');
  if (answer.systemMessage) process.stdout.write(`   you see: ${answer.systemMessage}\n`);
};
stop('I wrote add(). <promise>COMPLETE</promise>');
writeFileSync(join(project, 'add.js'), 'module.exports = (a, b) => a + b;\n');
process.stdout.write('\n-- the agent fixes add.js\n');
stop('add() adds now and the tests pass.\n\n<promise>COMPLETE</promise>');
say('isdlc loop status --all');
process.stdout.write(isdlc('loop', 'status', '--all', '--dir', project));
say('Where to look next');
process.stdout.write(
  `  the project:        ${project}\n` +
    `  every decision:     ${join(project, '.isdlc/hook-activity.log')}\n` +
    `  its status:         node ${bin} status --dir ${project}\n` +
    `  check the install:  node ${bin} doctor ${project}\n` +
    `  the loop store:     ${join(project, '.isdlc/loop.db')} (node ${bin} loop status --all --dir ${project})\n`,
);

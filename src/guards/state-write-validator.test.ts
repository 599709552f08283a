import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { guardTable, SANDBOXED_PROJECT, type GuardCase } from '../../test/helpers/guard-table.js';
import { bashCall, editCall, recorded332In, writeCall } from '../../test/helpers/payloads.js';
import { testRecord, withTests, workflowState } from '../../test/helpers/states.js';

type State = Record<string, any>;
const P = '/project';
const STATE = '.isdlc/state.json';

/** A feature workflow in 06-implementation, version 5 on disk, tests failing. */
function onDisk(): State {
  const state = withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 2));
  state['state_version'] = 5;
  state['iteration_enforcement'] = { enabled: true };
  return state;
}

/** What the agent writes: the state on disk, changed by `change`. */
function changed(change: (state: State) => void): string {
  const state = onDisk();
  change(state);
  return JSON.stringify(state, null, 2);
}

const unchangedOnDisk = ({ state }: { state: State }): void => {
  expect(state).toEqual(onDisk());
};

const tests = (s: State): State => s['phases']['06-implementation'].iteration_requirements.test_iteration;
const diskText = JSON.stringify(onDisk(), null, 2);

function allCompleted(): State {
  const state = onDisk();
  for (const phase of state['active_workflow'].phases) {
    state['active_workflow'].phase_status[phase] = 'completed';
    state['phases'][phase].status = 'completed';
  }
  state['active_workflow'].current_phase_index = state['active_workflow'].phases.length;
  return state;
}

/** Marks the tests as passed: refused whatever path reaches the state file. */
const forged = (): string => changed((s) => Object.assign(tests(s), { completed: true, last_test_result: 'passed', status: 'success' }));

/** A MultiEdit (a host's edit tool with several edits): they apply in order, and the file they leave is judged. */
function multiEditCall(filePath: string, edits: { old_string: string; new_string: string; replace_all?: boolean }[]): Record<string, unknown> {
  return { ...editCall(P, filePath, '', ''), tool_name: 'MultiEdit', tool_input: { file_path: filePath, edits } };
}

const notebookCall = (path: string): Record<string, unknown> => ({
  ...editCall(P, path, '', ''),
  tool_name: 'NotebookEdit',
  tool_input: { notebook_path: path, new_source: '{}', cell_type: 'code', edit_mode: 'insert' },
});

/** Paths that are the state file, as the file system resolves them; each case forges passing tests through one. */
const STATE_ALIASES: [string, string, Partial<GuardCase>][] = [
  ['with ./ inside', '.isdlc/./state.json', {}],
  ['with a doubled slash', '.isdlc//state.json', {}],
  ['through x/..', 'x/../.isdlc/state.json', {}],
  ['through .isdlc/config/..', '.isdlc/config/../state.json', {}],
  ['relative to the payload cwd, a subfolder', '../.isdlc/state.json', { cwd: 'src', setup: (project) => mkdirSync(join(project, 'src')) }],
  ['through a symlinked file', 'link.json', { setup: (project) => symlinkSync('.isdlc/state.json', join(project, 'link.json')) }],
  ['through a symlinked folder', 'lnk/state.json', { setup: (project) => symlinkSync('.isdlc', join(project, 'lnk')) }],
];

/** Not a state file of this project: a fixture's, another project's, and (where case matters) `.ISDLC`. */
const FIXTURE_STATE = 'test/fixtures/old-project/.isdlc/state.json';

guardTable('state-write-validator', {
  valid: [
    // In the sandbox the file system refuses writes to .isdlc/; the text rule only notes (no false refusals).
    {
      name: 'in the sandbox: a python read of state that dumps JSON to stdout',
      state: onDisk(),
      files: SANDBOXED_PROJECT,
      payload: bashCall(P, `python3 -c "import json;print(json.dumps(json.load(open('${STATE}'))['current_phase']))"`),
      expect: 'allow',
      then: unchangedOnDisk,
    },
    {
      name: 'in the sandbox: a sed -i on state is left to the sandbox, with a note',
      state: onDisk(),
      files: SANDBOXED_PROJECT,
      payload: bashCall(P, `sed -i 's/failed/passed/' ${STATE}`),
      expect: 'allow',
      contextIncludes: ["isdlc's files are read-only in the sandbox"],
    },
    {
      name: 'in the sandbox: a read-only sqlite3 query of the loop store',
      state: onDisk(),
      files: SANDBOXED_PROJECT,
      payload: bashCall(P, 'sqlite3 -readonly .isdlc/loop.db "select id, status from loops"'),
      expect: 'allow',
    },
    // Without the sandbox the text rule refuses what it recognises; reads must not look like writes.
    {
      name: 'a python read of state that prints it with json.dumps (not json.dump)',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import json;print(json.dumps(json.load(open('${STATE}'))))"`),
      expect: 'allow',
      then: unchangedOnDisk,
    },
    {
      name: 'a python read of state that writes a summary elsewhere (the write names its own file)',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import json; d=json.load(open('${STATE}')); open('/tmp/phase.txt','w').write(str(d['current_phase']))"`),
      expect: 'allow',
    },
    {
      name: 'a sqlite3 query of the loop store',
      state: onDisk(),
      payload: bashCall(P, "sqlite3 .isdlc/loop.db 'select id, status from loops'"),
      expect: 'allow',
    },
    {
      name: 'a sqlite3 -readonly query of the loop store',
      state: onDisk(),
      payload: bashCall(P, 'sqlite3 -readonly -header -column .isdlc/loop.db "SELECT count(*) FROM loops WHERE status = \'delete\'"'),
      expect: 'allow',
    },
    {
      name: 'sqlite3 .tables and .schema of the loop store',
      state: onDisk(),
      payload: bashCall(P, 'sqlite3 .isdlc/loop.db .tables && sqlite3 .isdlc/loop.db ".schema loops"'),
      expect: 'allow',
    },
    {
      name: 'a sqlite3 query whose errors go to /dev/null (`2>/dev/null`: the 2 is a descriptor, not a statement)',
      state: onDisk(),
      payload: bashCall(P, "sqlite3 .isdlc/loop.db '.tables' 2>/dev/null; true"),
      expect: 'allow',
    },
    {
      name: 'a sqlite3 query with its errors joined to its output (`2>&1`)',
      state: onDisk(),
      payload: bashCall(P, "sqlite3 .isdlc/loop.db 'select id from loops' 2>&1 | head -5"),
      expect: 'allow',
    },
    {
      name: 'sqlite3 with a CTE that only reads, and a pragma that sets nothing',
      state: onDisk(),
      payload: bashCall(P, 'sqlite3 -json .isdlc/loop.db "WITH recent AS (SELECT * FROM loops) SELECT id FROM recent; PRAGMA table_info(loops)"'),
      expect: 'allow',
    },
    {
      name: 'perl -Mstrict -ne reading state (M takes the module, not an in-place i)',
      state: onDisk(),
      payload: bashCall(P, `perl -Mstrict -ne 'print if /phase/' ${STATE}`),
      expect: 'allow',
    },
    {
      name: 'perl -Ilib -MJSON::PP -e reading state',
      state: onDisk(),
      payload: bashCall(P, `perl -Ilib -MJSON::PP -0777 -ne 'print decode_json($_)->{current_phase}' ${STATE}`),
      expect: 'allow',
    },
    { name: 'sed -n printing lines of state', state: onDisk(), payload: bashCall(P, `sed -n '1,20p' ${STATE}`), expect: 'allow' },
    { name: 'a Write to an ordinary source file', state: onDisk(), payload: writeCall(P, 'src/export.ts', 'export const x = 1;\n'), expect: 'allow' },
    { name: 'a file called state.json outside .isdlc', state: onDisk(), payload: writeCall(P, 'src/store/state.json', '{"count": 0}'), expect: 'allow' },
    {
      name: 'a PostToolUse payload carrying bashEditDiff is not its event (it judges calls before they run)',
      state: onDisk(),
      payload: (project) => recorded332In('post-bash-edit-diff-state.json', project),
      expect: 'allow',
      then: unchangedOnDisk,
    },
    {
      name: 'a Write that changes only the project description, same version',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['project'] = { description: 'CSV export' })),
      ),
      expect: 'allow',
    },
    { name: 'a Write of the file exactly as it is', state: onDisk(), payload: writeCall(P, STATE, diskText), expect: 'allow' },
    {
      name: 'an Edit of a field nobody owns',
      state: onDisk(),
      payload: editCall(P, STATE, '"description": "test workflow"', '"description": "CSV export, take two"'),
      expect: 'allow',
    },
    {
      name: 'an Edit whose old text is not in the file (the tool itself will fail)',
      state: onDisk(),
      payload: editCall(P, STATE, '"no such text"', '"x"'),
      expect: 'allow',
    },
    {
      name: 'finishing a workflow by hand once every phase is completed (the enforcer repairs the entry)',
      state: allCompleted(),
      payload: writeCall(
        P,
        STATE,
        JSON.stringify({
          ...allCompleted(),
          active_workflow: null,
          current_phase: null,
          active_agent: null,
          workflow_history: [{ type: 'feature', completed_at: '2026-11-25T12:00:00Z' }],
        }),
      ),
      expect: 'allow',
    },
    {
      name: 'setting back a phase a supervised review sent to redo (the V8 exception)',
      state: { ...onDisk(), active_workflow: { ...onDisk()['active_workflow'], supervised_review: { phase: '05-test-strategy', status: 'redo' } } },
      payload: writeCall(
        P,
        STATE,
        JSON.stringify(
          (() => {
            const s = onDisk();
            s['active_workflow'].supervised_review = { phase: '05-test-strategy', status: 'redo' };
            s['active_workflow'].phase_status['05-test-strategy'] = 'in_progress';
            s['phases']['05-test-strategy'].status = 'in_progress';
            return s;
          })(),
        ),
      ),
      expect: 'allow',
    },
    {
      name: "setting back a phase the original's retry script recorded in active_workflow.recovery_action (the V8 exception)",
      state: { ...onDisk(), active_workflow: { ...onDisk()['active_workflow'], recovery_action: { type: 'retry', phase: '05-test-strategy' } } },
      payload: writeCall(
        P,
        STATE,
        JSON.stringify(
          (() => {
            const s = onDisk();
            s['active_workflow'].recovery_action = { type: 'retry', phase: '05-test-strategy' };
            s['active_workflow'].phase_status['05-test-strategy'] = 'in_progress';
            s['phases']['05-test-strategy'].status = 'in_progress';
            return s;
          })(),
        ),
      ),
      expect: 'allow',
    },
    {
      name: 'setting active_workflow.recovery_action and going back in the same write',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => {
          s['active_workflow'].recovery_action = { type: 'rollback', phase: '05-test-strategy' };
          s['active_workflow'].phase_status['05-test-strategy'] = 'in_progress';
        }),
      ),
      expect: 'deny',
      reasonIncludes: ['active_workflow.recovery_action would let phases be set back', 'V8: active_workflow.phase_status["05-test-strategy"] goes back'],
    },
    {
      name: 'records that do not add up are reported, not refused (V3, V9)',
      state: (() => {
        const s = onDisk();
        s['phases']['01-requirements'].iteration_requirements = { test_iteration: { completed: true, current_iteration: 0 } };
        s['active_workflow'].phase_status['02-impact-analysis'] = 'pending';
        return s;
      })(),
      payload: editCall(P, STATE, '"description": "test workflow"', '"description": "renamed"'),
      expect: 'allow',
      contextIncludes: ['V3: 01-requirements test_iteration is completed with current_iteration 0', 'V9: 02-impact-analysis'],
    },
    {
      name: 'a state file that was already not JSON cannot be judged',
      files: { [STATE]: '{ broken' },
      payload: writeCall(P, STATE, '{}'),
      expect: 'allow',
      contextIncludes: ['not valid JSON'],
    },
    { name: 'reading state in the shell', state: onDisk(), payload: bashCall(P, 'cat .isdlc/state.json | jq .active_workflow'), expect: 'allow' },
    { name: 'copying state away for a backup', state: onDisk(), payload: bashCall(P, 'cp .isdlc/state.json /tmp/state-backup.json'), expect: 'allow' },
    { name: 'a state path inside an echoed string', state: onDisk(), payload: bashCall(P, 'echo "never write > .isdlc/state.json by hand"'), expect: 'allow' },
    { name: 'grep into another file', state: onDisk(), payload: bashCall(P, 'grep -c phase .isdlc/state.json > /tmp/count.txt'), expect: 'allow' },
    {
      name: "a Write to a test fixture's .isdlc/state.json in a subfolder (not this project's)",
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: writeCall(P, FIXTURE_STATE, forged()),
      expect: 'allow',
    },
    {
      name: "an Edit of a test fixture's state",
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: editCall(P, FIXTURE_STATE, '"last_test_result": "failed"', '"last_test_result": "passed"'),
      expect: 'allow',
    },
    {
      name: "a MultiEdit of a test fixture's state",
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: multiEditCall(FIXTURE_STATE, [{ old_string: '"last_test_result": "failed"', new_string: '"last_test_result": "passed"' }]),
      expect: 'allow',
    },
    { name: "shell: a copy onto a test fixture's state", state: onDisk(), payload: bashCall(P, `cp /tmp/s.json ${FIXTURE_STATE}`), expect: 'allow' },
    { name: "another project's state file", state: onDisk(), payload: writeCall(P, '/tmp/isdlc-another-project/.isdlc/state.json', forged()), expect: 'allow' },
    {
      name: "shell: a copy onto another project's state",
      state: onDisk(),
      payload: bashCall(P, 'cp /tmp/s.json /tmp/isdlc-another-project/.isdlc/state.json'),
      expect: 'allow',
    },
    ...(process.platform === 'linux'
      ? [
          {
            name: '.ISDLC/state.json on a case-sensitive file system is another file',
            state: onDisk(),
            files: { '.ISDLC/state.json': onDisk() },
            payload: writeCall(P, '.ISDLC/state.json', forged()),
            expect: 'allow' as const,
          },
        ]
      : []),
    // A fixture's state reached through a `cd`, `..` or an absolute path elsewhere is not this project's.
    {
      name: 'shell: cd into a fixture project, then echo its state',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test/fixtures/old-project && echo '{}' > ${STATE}`),
      expect: 'allow',
    },
    {
      name: 'shell: cd into a fixture project, then a python json.dump of its state',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test/fixtures/old-project && python3 -c "import json; json.dump({}, open('${STATE}', 'w'))"`),
      expect: 'allow',
    },
    {
      name: "shell: a heredoc creating a fixture's state in a new folder",
      state: onDisk(),
      payload: bashCall(
        P,
        `mkdir -p test/fixtures/new/.isdlc && cat > test/fixtures/new/.isdlc/state.json <<'EOF'\n{"current_phase": "06-implementation"}\nEOF`,
      ),
      expect: 'allow',
    },
    {
      name: "shell: rm of a sibling project's state through ..",
      state: onDisk(),
      setup: (project) => mkdirSync(join(project, '..', `${project.split('/').pop()}-other/.isdlc`), { recursive: true }),
      payload: (project) => bashCall(project, `rm ../${project.split('/').pop()}-other/.isdlc/state.json`),
      expect: 'allow',
    },
    {
      name: 'shell: echo into state.json of a project in /tmp',
      state: onDisk(),
      payload: bashCall(P, "echo '{}' > /tmp/isdlc-another-project/.isdlc/state.json"),
      expect: 'allow',
    },
    {
      name: 'reading the loop store, and the loop commands',
      state: onDisk(),
      payload: bashCall(P, 'ls -l .isdlc/loop.db && node .isdlc/bin/isdlc.cjs loop status'),
      expect: 'allow',
    },
    {
      name: 'the isdlc commands themselves',
      state: onDisk(),
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs phase complete --summary "done" && node .isdlc/bin/isdlc.cjs phase activate'),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'a sqlite3 write whose errors go to /dev/null',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 .isdlc/loop.db "UPDATE loops SET status='cancelled'" 2>/dev/null`),
      expect: 'deny',
    },
    {
      name: 'both outputs redirected into the state file (`>&`)',
      state: onDisk(),
      payload: bashCall(P, 'echo "{}" >& .isdlc/state.json'),
      expect: 'deny',
    },
    // The same routes must still find this project's own state.
    {
      name: 'shell: cd .isdlc && echo > state.json',
      state: onDisk(),
      payload: bashCall(P, "cd .isdlc && echo '{}' > state.json"),
      expect: 'deny',
      reasonIncludes: ['state.json (redirection (>))'],
    },
    {
      name: 'shell: cd .isdlc; echo > state.json (the cd may fail: taken at its word)',
      state: onDisk(),
      payload: bashCall(P, "cd .isdlc; echo '{}' > state.json"),
      expect: 'deny',
    },
    { name: 'shell: { cd .isdlc && echo > state.json; }', state: onDisk(), payload: bashCall(P, "{ cd .isdlc && echo '{}' > state.json; }"), expect: 'deny' },
    {
      name: 'shell: cd .isdlc && sqlite3 loop.db with a delete',
      state: onDisk(),
      payload: bashCall(P, 'cd .isdlc && sqlite3 loop.db "delete from loops"'),
      expect: 'deny',
      reasonIncludes: ['loop store'],
    },
    {
      name: 'shell: a cd into a fixture that may fail before ;',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test/fixtures/old-project; echo '{}' > ${STATE}`),
      expect: 'deny',
    },
    {
      name: 'shell: a cd in a pipeline does not move the shell',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test/fixtures/old-project | true && echo '{}' > ${STATE}`),
      expect: 'deny',
    },
    {
      name: 'shell: a cd in a subshell does not move the line',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `(cd test/fixtures/old-project && true) && echo '{}' > ${STATE}`),
      expect: 'deny',
    },
    {
      name: 'shell: a cd into a fixture and back out again',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test/fixtures/old-project && cd ../../.. && echo '{}' > ${STATE}`),
      expect: 'deny',
    },
    {
      name: 'shell: a cd, then bash -c climbing back',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `cd test && bash -c "cd .. && echo '{}' > ${STATE}"`),
      expect: 'deny',
    },
    {
      name: 'shell: a cd by eval',
      state: onDisk(),
      files: { [FIXTURE_STATE]: onDisk() },
      payload: bashCall(P, `eval "cd test/fixtures/old-project" && echo '{}' > ${STATE}`),
      expect: 'deny',
    },
    {
      name: 'shell: ../<this project>/.isdlc/state.json resolves to this project',
      state: onDisk(),
      payload: (project) => bashCall(project, `echo '{}' > ../${project.split('/').pop()}/.isdlc/state.json`),
      expect: 'deny',
    },
    {
      name: 'shell: a link made in the same line into .isdlc',
      state: onDisk(),
      payload: bashCall(P, "ln -s .isdlc sd && echo '{}' > sd/state.json"),
      expect: 'deny',
    },
    {
      name: 'shell: cd into a linked folder that points into .isdlc',
      state: onDisk(),
      setup: (project) => symlinkSync('.isdlc', join(project, 'cfg')),
      payload: bashCall(P, "cd cfg && echo '{}' > state.json"),
      expect: 'deny',
    },
    {
      name: 'shell: .. through a link into .isdlc/config',
      state: onDisk(),
      setup: (project) => {
        mkdirSync(join(project, '.isdlc/config'), { recursive: true });
        symlinkSync('.isdlc/config', join(project, 'conf'));
      },
      payload: bashCall(P, "echo '{}' > conf/../state.json"),
      expect: 'deny',
    },
    {
      // The text rule follows the `cd`: the script's bare 'state.json' is this project's state. (The journal is
      // still the wall: unexpected-file-change reports what a rephrased command changed.)
      name: 'the recorded 2.1.332 forge (`cd .isdlc && python3 -c ...` on a bare state.json) is read from the folder the cd went to',
      state: onDisk(),
      payload: (project) => {
        const { tool_response: _response, duration_ms: _ms, ...call } = recorded332In('post-bash-edit-diff-state.json', project);
        return { ...call, hook_event_name: 'PreToolUse' };
      },
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    {
      name: 'a python json.dump into state (the dumps fix does not open this)',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import json;s=json.load(open('${STATE}'));json.dump(s, open('${STATE}','w'))"`),
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    {
      name: "a python write of state through open(..., 'r+')",
      state: onDisk(),
      payload: bashCall(P, `python3 -c "f=open('${STATE}','r+');f.write('{}')"`),
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    {
      name: 'a python script that reads state and writes it back through a variable',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import json; p='${STATE}'; d=json.load(open(p)); open('/tmp/log','w'); open(p,'w').write('{}')"`),
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    {
      name: 'a node appendFile onto state',
      state: onDisk(),
      payload: bashCall(P, `node -e "require('fs').appendFileSync('${STATE}', ' ')"`),
      expect: 'deny',
      reasonIncludes: ['node script'],
    },
    {
      name: 'sqlite3: a select followed by a delete',
      state: onDisk(),
      payload: bashCall(P, 'sqlite3 .isdlc/loop.db "select 1; delete from loops"'),
      expect: 'deny',
      reasonIncludes: ['loop.db (sqlite3)'],
    },
    {
      name: 'sqlite3 -readonly does not cover a CTE that deletes',
      state: onDisk(),
      payload: bashCall(P, 'sqlite3 .isdlc/loop.db "WITH x AS (SELECT 1) DELETE FROM loops"'),
      expect: 'deny',
    },
    {
      name: 'sqlite3 with statements from stdin',
      state: onDisk(),
      payload: bashCall(P, 'echo "delete from loops" | sqlite3 -readonly .isdlc/loop.db'),
      expect: 'deny',
    },
    { name: 'sqlite3 .import into the loop store', state: onDisk(), payload: bashCall(P, 'sqlite3 .isdlc/loop.db ".import rows.csv loops"'), expect: 'deny' },
    {
      name: 'sqlite3 on another database that attaches the loop store',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 /tmp/x.db "ATTACH '.isdlc/loop.db' AS l; DELETE FROM l.loops"`),
      expect: 'deny',
      reasonIncludes: ['sqlite3 statement'],
    },
    {
      name: 'sqlite3: a select that calls writefile() onto state',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 .isdlc/loop.db "select writefile('.isdlc/state.json', '{}')"`),
      expect: 'deny',
    },
    // Found by an attacker: writes hidden from the read-only reading of sqlite3's statements.
    {
      name: 'sqlite3: a quote inside a comment hiding a CREATE TRIGGER',
      state: onDisk(),
      payload: bashCall(
        P,
        `sqlite3 .isdlc/loop.db "SELECT 1 /* ' */; CREATE TRIGGER atk AFTER UPDATE ON loops BEGIN UPDATE loops SET status='cancelled'; END; -- '"`,
      ),
      expect: 'deny',
    },
    {
      name: 'sqlite3: a quoted name hiding an UPDATE',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 .isdlc/loop.db 'SELECT "'"'"'"; UPDATE loops SET iteration=1; SELECT "'"'"'"'`),
      expect: 'deny',
    },
    {
      name: 'sqlite3: a PRAGMA that sets a value in parentheses',
      state: onDisk(),
      payload: bashCall(P, "sqlite3 .isdlc/loop.db 'PRAGMA user_version(42)'"),
      expect: 'deny',
    },
    {
      name: 'sqlite3: the loop store as a URI filename',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 'file:.isdlc/loop.db?mode=rw' "UPDATE loops SET status='cancelled'"`),
      expect: 'deny',
    },
    { name: 'sqlite3 -A (archive mode) on the loop store', state: onDisk(), payload: bashCall(P, 'sqlite3 .isdlc/loop.db -Ac notes.txt'), expect: 'deny' },
    {
      name: 'perl switching in-place editing on from its code',
      state: onDisk(),
      payload: bashCall(P, `perl -pe 'BEGIN { $^I = "" } s/failed/passed/' ${STATE}`),
      expect: 'deny',
      reasonIncludes: ['perl -i'],
    },
    {
      name: 'a fixture folder swapped for a link in the same line, then a cd into it',
      state: onDisk(),
      files: { 'test/fixtures/old-project/state.json': '{}' },
      payload: bashCall(
        P,
        "rm -rf test/fixtures/old-project && ln -s ../../.isdlc test/fixtures/old-project && cd test/fixtures/old-project && echo '{}' > state.json",
      ),
      expect: 'deny',
    },
    {
      name: 'a relative cd with CDPATH set in the line',
      state: onDisk(),
      files: { 'fix/.isdlc/state.json': '{}' },
      payload: bashCall(P, "export CDPATH=/elsewhere; cd fix && echo '{}' > .isdlc/state.json"),
      expect: 'deny',
    },
    {
      name: 'perl -Mstrict -i -pe on state (the in-place switch of its own)',
      state: onDisk(),
      payload: bashCall(P, `perl -Mstrict -i -pe 's/failed/passed/' ${STATE}`),
      expect: 'deny',
      reasonIncludes: ['perl -i'],
    },
    {
      name: 'perl -pi.bak -e on state (in a bundle, with a suffix)',
      state: onDisk(),
      payload: bashCall(P, `perl -pi.bak -e 's/failed/passed/' ${STATE}`),
      expect: 'deny',
      reasonIncludes: ['perl -i'],
    },
    {
      name: 'perl -ne with -i after the code',
      state: onDisk(),
      payload: bashCall(P, `perl -ne 'print' -i ${STATE}`),
      expect: 'deny',
      reasonIncludes: ['perl -i'],
    },
    { name: 'sed -Ei on state', state: onDisk(), payload: bashCall(P, `sed -Ei 's/failed/passed/' ${STATE}`), expect: 'deny', reasonIncludes: ['sed -i'] },
    {
      name: 'V7: a Write made from a stale read (version 3, disk 5)',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['state_version'] = 3)),
      ),
      expect: 'deny',
      reasonIncludes: [
        'isdlc state-write-validator: Leave the fields below to isdlc: do what each line says instead of this Write of .isdlc/state.json',
        'V7',
        'is 3 in this write but 5 on disk',
        're-read',
        'the file is unchanged',
      ],
      then: unchangedOnDisk,
    },
    {
      name: 'V8: a phase status going back from completed to pending',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => {
          s['active_workflow'].phase_status['01-requirements'] = 'pending';
        }),
      ),
      expect: 'deny',
      reasonIncludes: ['V8: active_workflow.phase_status["01-requirements"] goes back from "completed" to "pending"'],
      then: unchangedOnDisk,
    },
    {
      name: 'V8: the phase index going back',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['active_workflow'].current_phase_index = 2)),
      ),
      expect: 'deny',
      reasonIncludes: ['V8: active_workflow.current_phase_index goes back from 6 to 2'],
    },
    {
      name: 'V8 also for an Edit (the old implementation could only check Writes)',
      state: onDisk(),
      payload: editCall(P, STATE, '"current_phase_index": 6', '"current_phase_index": 5'),
      expect: 'deny',
      reasonIncludes: ['V8'],
    },
    {
      name: 'marking the tests as passed by hand',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => Object.assign(tests(s), { completed: true, last_test_result: 'passed', status: 'success' })),
      ),
      expect: 'deny',
      reasonIncludes: ['phases["06-implementation"].iteration_requirements.test_iteration is evidence isdlc records itself', 'run the tests'],
      then: unchangedOnDisk,
    },
    {
      name: 'the same with an Edit of one value',
      state: onDisk(),
      payload: editCall(P, STATE, '"last_test_result": "failed"', '"last_test_result": "passed"'),
      expect: 'deny',
      reasonIncludes: ['test_iteration'],
      then: unchangedOnDisk,
    },
    {
      name: 'approving an escalation by hand',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => Object.assign(tests(s), { status: 'escalated', escalation_approved: true })),
      ),
      expect: 'deny',
      reasonIncludes: ['would approve an escalation', 'isdlc escalation approve'],
    },
    {
      name: 'writing constitutional validation by hand',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['phases']['06-implementation'].constitutional_validation = { completed: true, status: 'compliant', iterations_used: 1 })),
      ),
      expect: 'deny',
      reasonIncludes: ['constitutional_validation', 'mcp__isdlc__constitution_record'],
    },
    {
      name: 'removing the loop store (to escape a loop)',
      state: onDisk(),
      payload: bashCall(P, 'rm -f .isdlc/loop.db .isdlc/loop.db-wal'),
      expect: 'deny',
      reasonIncludes: ["the iteration loops' store", '<promise>BLOCKED</promise>', 'isdlc loop cancel'],
    },
    {
      name: 'editing the loop store with sqlite3',
      state: onDisk(),
      payload: bashCall(P, `sqlite3 .isdlc/loop.db "UPDATE loops SET status = 'completed'"`),
      expect: 'deny',
      reasonIncludes: ['loop.db (sqlite3)'],
    },
    {
      name: 'a script that opens the loop store',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import sqlite3; sqlite3.connect('.isdlc/loop.db').execute('DELETE FROM loops')"`),
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    {
      name: 'overwriting the loop store with the Write tool',
      state: onDisk(),
      payload: writeCall(P, '.isdlc/loop.db', ''),
      expect: 'deny',
      reasonIncludes: ['isdlc state-write-validator: Leave the loop store to isdlc', "the iteration loops' store"],
    },
    {
      name: 'writing a gate result by hand',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['phases']['06-implementation'].gate_validation = { status: 'passed' })),
      ),
      expect: 'deny',
      reasonIncludes: ['gate_validation', 'mcp__isdlc__phase_complete'],
    },
    {
      name: 'setting the iteration limits',
      state: onDisk(),
      payload: editCall(P, STATE, '"enabled": true', '"enabled": true }, "iteration_config": { "testing_max": 99, "configured_at": "now"'),
      expect: 'deny',
      reasonIncludes: ['iteration_config'],
    },
    {
      name: 'switching enforcement off',
      state: onDisk(),
      payload: editCall(P, STATE, '"enabled": true', '"enabled": false'),
      expect: 'deny',
      reasonIncludes: ['iteration_enforcement'],
    },
    {
      name: 'a delegation written into the log by hand (the gate reads it as evidence)',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => s['skill_usage_log'].push({ timestamp: '2026-11-25T11:00:00Z', agent: 'software-developer', agent_phase: '06-implementation' })),
      ),
      expect: 'deny',
      reasonIncludes: ['skill_usage_log', 'isdlc logs every delegation it sees'],
    },
    {
      name: 'erasing a recorded commit to a closed branch (it keeps the gate closed)',
      state: {
        ...onDisk(),
        branch_violations: [
          {
            branch: 'main',
            rule: 'main',
            from: 'a'.repeat(40),
            to: 'b'.repeat(40),
            commits: [],
            commit_count: 1,
            phase: '06-implementation',
            workflow_started_at: null,
            detected_at: '2026-11-25T11:00:00Z',
          },
        ],
      },
      payload: writeCall(P, STATE, JSON.stringify({ ...onDisk(), branch_violations: [] })),
      expect: 'deny',
      reasonIncludes: ['branch_violations', 'isdlc branch acknowledge'],
    },
    {
      name: 'dropping the count floor an ended workflow left (only a person accepts fewer tests)',
      state: { ...onDisk(), test_count_floor: { executed: 12, at: '2026-11-25T10:42:00.000Z', what: 'the gate', from: 'the feature workflow cancelled' } },
      payload: writeCall(P, STATE, JSON.stringify(onDisk())),
      expect: 'deny',
      reasonIncludes: ['test_count_floor', 'isdlc tests accept'],
    },
    {
      name: 'moving the recorded test definition to the edited one (only a person accepts it)',
      state: (() => {
        const state = onDisk();
        state['active_workflow'].test_definition = {
          digest: 'a'.repeat(64),
          files: { 'package.json#scripts.test': 'b'.repeat(64) },
          command: 'npm test',
          recorded_at: '2026-11-25T10:00:00.000Z',
        };
        return state;
      })(),
      payload: editCall(P, STATE, 'b'.repeat(64), 'c'.repeat(64)),
      expect: 'deny',
      reasonIncludes: ['active_workflow.test_definition', 'isdlc tests accept'],
    },
    {
      name: 'clearing the delegation marker by hand',
      state: { ...onDisk(), pending_delegation: { skill: 'isdlc', required_agent: 'sdlc-orchestrator', invoked_at: '2026-11-25T11:00:00Z', args: '' } },
      payload: writeCall(P, STATE, JSON.stringify({ ...onDisk(), pending_delegation: null })),
      expect: 'deny',
      reasonIncludes: ['pending_delegation'],
    },
    {
      name: 'moving state_version on',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => (s['state_version'] = 9)),
      ),
      expect: 'deny',
      reasonIncludes: ['state_version would change from 5 to 9', 'keep it at 5'],
    },
    {
      name: 'completing a phase by hand (skipping its gate)',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => {
          s['active_workflow'].phase_status['06-implementation'] = 'completed';
          s['phases']['06-implementation'].status = 'completed';
          s['active_workflow'].current_phase_index = 7;
        }),
      ),
      expect: 'deny',
      reasonIncludes: ['active_workflow.phase_status["06-implementation"] is a phase tracker', 'mcp__isdlc__phase_complete'],
    },
    {
      name: 'activating the next phase by hand',
      state: onDisk(),
      payload: editCall(P, STATE, '"current_phase": "06-implementation"', '"current_phase": "16-quality-loop"', true),
      expect: 'deny',
      reasonIncludes: ['mcp__isdlc__phase_activate'],
    },
    {
      name: 'starting a workflow by hand',
      state: { state_version: 2, active_workflow: null, phases: {} },
      payload: writeCall(
        P,
        STATE,
        JSON.stringify({ state_version: 2, active_workflow: { type: 'feature', phases: ['01-requirements'], current_phase: '01-requirements' }, phases: {} }),
      ),
      expect: 'deny',
      reasonIncludes: ['mcp__isdlc__workflow_start'],
    },
    {
      name: 'dropping a workflow whose phases are not done',
      state: onDisk(),
      payload: writeCall(
        P,
        STATE,
        changed((s) => {
          s['active_workflow'] = null;
        }),
      ),
      expect: 'deny',
      reasonIncludes: ['mcp__isdlc__workflow_cancel'],
    },
    {
      name: 'an Edit that would leave the file not JSON',
      state: onDisk(),
      payload: editCall(P, STATE, '"state_version": 5,', '"state_version": 5'),
      expect: 'deny',
      reasonIncludes: [
        "isdlc state-write-validator: Use isdlc's tools to change state (`mcp__isdlc__status` names the next one) instead of this Edit",
        'not be a valid JSON object',
      ],
      then: unchangedOnDisk,
    },
    {
      name: 'writing a state file that does not exist',
      payload: writeCall(P, STATE, '{"state_version": 1}'),
      expect: 'deny',
      reasonIncludes: ['isdlc state-write-validator: Do not create .isdlc/state.json by hand', 'isdlc init'],
    },
    {
      name: "a monorepo project's state file",
      files: { '.isdlc/projects/api-service/state.json': onDisk() },
      payload: writeCall(
        P,
        '.isdlc/projects/api-service/state.json',
        changed((s) => (s['state_version'] = 1)),
      ),
      expect: 'deny',
      reasonIncludes: ['V7'],
    },
    ...STATE_ALIASES.flatMap(([how, path, extra]): GuardCase[] => [
      {
        name: `a Write of state ${how} (${path})`,
        state: onDisk(),
        payload: writeCall(P, path, forged()),
        expect: 'deny',
        reasonIncludes: ['test_iteration'],
        then: unchangedOnDisk,
        ...extra,
      },
      {
        name: `an Edit of state ${how} (${path})`,
        state: onDisk(),
        payload: editCall(P, path, '"last_test_result": "failed"', '"last_test_result": "passed"'),
        expect: 'deny',
        reasonIncludes: ['test_iteration'],
        ...extra,
      },
    ]),
    {
      name: 'a MultiEdit is judged on what all its edits leave: a harmless first edit, then a forged result',
      state: onDisk(),
      payload: multiEditCall(STATE, [
        { old_string: '"description": "test workflow"', new_string: '"description": "renamed"' },
        { old_string: '"last_test_result": "failed"', new_string: '"last_test_result": "passed"', replace_all: true },
      ]),
      expect: 'deny',
      reasonIncludes: ['instead of this MultiEdit of .isdlc/state.json', 'test_iteration'],
      then: unchangedOnDisk,
    },
    {
      name: 'a NotebookEdit aimed at state through a notebook symlink',
      state: onDisk(),
      setup: (project) => symlinkSync('.isdlc/state.json', join(project, 'x.ipynb')),
      payload: notebookCall('x.ipynb'),
      expect: 'deny',
      reasonIncludes: ['not a notebook'],
    },
    {
      name: 'the loop store through a symlinked folder',
      state: onDisk(),
      setup: (project) => symlinkSync('.isdlc', join(project, 'lnk')),
      payload: writeCall(P, 'lnk/loop.db', ''),
      expect: 'deny',
      reasonIncludes: ["the iteration loops' store"],
    },
    {
      name: 'shell: a redirection onto .isdlc//state.json',
      state: onDisk(),
      payload: bashCall(P, "echo '{}' > .isdlc//state.json"),
      expect: 'deny',
      reasonIncludes: ['redirection'],
    },
    {
      name: 'shell: cp onto x/../.isdlc/state.json',
      state: onDisk(),
      payload: bashCall(P, 'cp /tmp/s.json x/../.isdlc/state.json'),
      expect: 'deny',
      reasonIncludes: ['(cp)'],
    },
    {
      name: 'shell: a path through a variable stays ours (the hook cannot expand it)',
      state: onDisk(),
      payload: bashCall(P, 'cp /tmp/s.json "$PROJECT_DIR/.isdlc/state.json"'),
      expect: 'deny',
    },
    {
      name: 'a Windows path (backslashes)',
      state: onDisk(),
      payload: writeCall(
        P,
        '.isdlc\\state.json',
        changed((s) => (tests(s).completed = true)),
      ),
      expect: 'deny',
      reasonIncludes: ['test_iteration'],
    },
    {
      name: 'shell: a redirection onto state',
      state: onDisk(),
      payload: bashCall(P, "echo '{}' > .isdlc/state.json"),
      expect: 'deny',
      reasonIncludes: ["isdlc state-write-validator: Use isdlc's tools instead: read the state with `mcp__isdlc__status`", 'redirection'],
      then: unchangedOnDisk,
    },
    {
      name: 'shell: jq to a temp file, then mv onto state',
      state: onDisk(),
      payload: bashCall(P, 'jq \'.phases["06-implementation"].status = "completed"\' .isdlc/state.json > /tmp/s.json && mv /tmp/s.json .isdlc/state.json'),
      expect: 'deny',
      reasonIncludes: ['(mv)'],
    },
    { name: 'shell: sed -i', state: onDisk(), payload: bashCall(P, 'sed -i "s/failed/passed/" .isdlc/state.json'), expect: 'deny', reasonIncludes: ['sed -i'] },
    {
      name: 'shell: tee into a monorepo state',
      state: onDisk(),
      payload: bashCall(P, 'cat /tmp/s.json | tee .isdlc/projects/web/state.json'),
      expect: 'deny',
      reasonIncludes: ['tee'],
    },
    { name: 'shell: cp onto state', state: onDisk(), payload: bashCall(P, 'cp /tmp/good-state.json ./.isdlc/state.json'), expect: 'deny' },
    {
      name: 'shell: a python one-liner writing state',
      state: onDisk(),
      payload: bashCall(P, `python3 -c "import json; json.dump({}, open('.isdlc/state.json', 'w'))"`),
      expect: 'deny',
      reasonIncludes: ['python3 script'],
    },
    { name: 'shell: inside bash -c', state: onDisk(), payload: bashCall(P, `bash -c "echo x >> .isdlc/state.json"`), expect: 'deny' },
    { name: 'shell: removing state', state: onDisk(), payload: bashCall(P, 'rm -f .isdlc/state.json'), expect: 'deny', reasonIncludes: ['(rm)'] },
    {
      name: 'PowerShell: Set-Content with a Windows path',
      state: onDisk(),
      payload: { ...bashCall(P, 'Set-Content -Path .isdlc\\state.json -Value "{}"'), tool_name: 'PowerShell' },
      expect: 'deny',
      reasonIncludes: ['set-content'],
    },
  ],
});

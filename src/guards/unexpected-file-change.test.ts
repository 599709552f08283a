import { HOST_MCP_LIST, HOST_SETTINGS } from '../../test/helpers/hosts.js';
import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashEdited, recorded332In } from '../../test/helpers/payloads.js';
import { lastActivity } from '../../test/helpers/project.js';
import { workflowState } from '../../test/helpers/states.js';

const state = () => workflowState('feature', '06-implementation');
const quiet = ({ decision }: { decision: { context?: string; systemMessage?: string } }) => {
  expect(decision.context).toBeUndefined();
  expect(decision.systemMessage).toBeUndefined();
};
const detailOf = (project: string) => (lastActivity(project)['details'] as Record<string, unknown>[] | undefined)?.[0];

guardTable('unexpected-file-change', {
  valid: [
    {
      name: 'the recorded forge of state.json (2.1.332: `cd .isdlc && python3 -c ...`): the model, the person and the log hear of it',
      state: state(),
      payload: (project) => recorded332In('post-bash-edit-diff-state.json', project),
      expect: 'allow',
      contextIncludes: [
        "Use isdlc's commands, not shell commands, to change isdlc's files",
        ".isdlc/state.json (the workflow's state, modified)",
        '`mcp__isdlc__status`',
        '`mcp__isdlc__phase_complete`',
        'isdlc did not make this change and has not reverted it yet',
      ],
      then: ({ decision, project }) => {
        expect(decision.systemMessage).toContain("the agent's shell command changed .isdlc/state.json");
        expect(decision.systemMessage).toContain('has not reverted it');
        expect(detailOf(project)).toEqual({
          guard: 'unexpected-file-change',
          guarded_files: [{ file: '.isdlc/state.json', kind: 'state', change: 'modified' }],
        });
      },
    },
    {
      name: 'the recorded edit of an ordinary file (notes.txt) is none of its business',
      state: state(),
      payload: (project) => recorded332In('post-bash-edit-diff.json', project),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'config, constitution and the bin, each with what to do instead',
      state: state(),
      payload: (project) =>
        bashEdited(project, 'python3 tools/tweak.py', [
          { path: '.isdlc/config/iteration-requirements.json', lines: ['-    "max_iterations": 10', '+    "max_iterations": 100'] },
          { path: 'docs/isdlc/constitution.md', lines: ['-## Article II', '+## Article II (optional)'] },
          { path: '.isdlc/bin/hook-tool-call.cjs', lines: ['-x', '+y'] },
          { path: 'src/app.ts', lines: ['+export {}'] },
        ]),
      expect: 'allow',
      contextIncludes: [
        ".isdlc/config/iteration-requirements.json (isdlc's configuration, modified): configuration is the person's to change: ask them",
        "docs/isdlc/constitution.md (the project's constitution, modified): the constitution is the person's",
        ".isdlc/bin/hook-tool-call.cjs (isdlc's installed program, modified): only `isdlc init`",
      ],
      then: ({ decision, project }) => {
        expect(decision.context).not.toContain('src/app.ts');
        expect(detailOf(project)?.['guarded_files']).toEqual([
          { file: '.isdlc/config/iteration-requirements.json', kind: 'config', change: 'modified' },
          { file: 'docs/isdlc/constitution.md', kind: 'constitution', change: 'modified' },
          { file: '.isdlc/bin/hook-tool-call.cjs', kind: 'bin', change: 'modified' },
        ]);
      },
    },
    {
      name: 'a rename of the state file (the old path deleted, the new created) and a loop store that git does not ignore',
      state: state(),
      payload: (project) =>
        bashEdited(project, 'mv .isdlc/state.json .isdlc/state.bak && rm -f .isdlc/loop.db', [
          { path: '.isdlc/state.json', deleted: true },
          { path: '.isdlc/state.bak', created: true },
          { path: '.isdlc/loop.db', deleted: true },
        ]),
      expect: 'allow',
      contextIncludes: [
        ".isdlc/state.json (the workflow's state, deleted)",
        '.isdlc/state.bak (a file isdlc keeps, created)',
        ".isdlc/loop.db (the iteration loops' store, deleted): see a loop with `mcp__isdlc__iteration_status`",
      ],
      then: ({ project }) =>
        expect(detailOf(project)?.['guarded_files']).toEqual([
          { file: '.isdlc/state.json', kind: 'state', change: 'deleted' },
          { file: '.isdlc/state.bak', kind: 'other', change: 'created' },
          { file: '.isdlc/loop.db', kind: 'loop-store', change: 'deleted' },
        ]),
    },
    {
      name: "isdlc's entries in settings.json and .mcp.json",
      state: state(),
      payload: (project) =>
        bashEdited(project, `jq 'del(.hooks)' ${HOST_SETTINGS} > t && mv t ${HOST_SETTINGS}`, [
          { path: HOST_SETTINGS, lines: ['-        "command": "node",', '-        "args": [".isdlc/bin/isdlc.cjs", "hook"]'] },
          { path: HOST_MCP_LIST, lines: ['-    "isdlc": {'] },
        ]),
      expect: 'allow',
      contextIncludes: ["isdlc's hook entries there are installed by `isdlc init`", "isdlc's server entry there"],
    },
    {
      name: "the person's own entries in settings.json are theirs",
      state: state(),
      payload: (project) => bashEdited(project, 'python3 set-theme.py', [{ path: HOST_SETTINGS, lines: ['-  "theme": "dark"', '+  "theme": "light"'] }]),
      expect: 'allow',
      then: quiet,
    },
    {
      name: "the project's own isdlc changing state through the shell (`node .isdlc/bin/isdlc.cjs phase complete`, after a cd to the project) is isdlc's write",
      state: state(),
      payload: (project) =>
        bashEdited(project, `cd ${project} && node .isdlc/bin/isdlc.cjs phase complete --summary "done"`, [
          { path: '.isdlc/state.json', lines: ['-  "state_version": 7', '+  "state_version": 8'] },
        ]),
      expect: 'allow',
      then: ({ decision, project }) => {
        quiet({ decision });
        expect(detailOf(project)).toMatchObject({ outcome: 'isdlc-command' });
      },
    },
    {
      name: 'the same by its absolute path',
      state: state(),
      payload: (project) =>
        bashEdited(project, `node ${project}/.isdlc/bin/isdlc.cjs workflow start feature --description "CSV"`, [{ path: '.isdlc/state.json', created: true }]),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a state change to a version an isdlc hook logged writing is a write of isdlc’s store (a hook beside the command), not reported',
      state: state(),
      files: { '.isdlc/hook-activity.log': '{"event":"PostToolUse","tool":"Agent","decision":"allow","state_version":8}\n' },
      payload: (project) => bashEdited(project, 'npm test', [{ path: '.isdlc/state.json', lines: ['-  "state_version": 7', '+  "state_version": 8'] }]),
      expect: 'allow',
      then: ({ decision, project }) => {
        quiet({ decision });
        expect(detailOf(project)).toMatchObject({ outcome: 'not-reported', files: ['.isdlc/state.json'] });
      },
    },
    ...[
      ['a script the agent named isdlc.cjs', 'node /tmp/isdlc.cjs phase complete'],
      ["the project's path after a cd elsewhere", 'cd /tmp/fake && node .isdlc/bin/isdlc.cjs phase complete'],
      ['a command the agent named isdlc', './isdlc phase complete'],
      ['npx isdlc, which runs whatever node_modules holds under that name', 'npx isdlc phase complete'],
    ].map(([what, command]) => ({
      name: `not isdlc's own command, so reported: ${what}`,
      state: state(),
      payload: (project: string) => bashEdited(project, command!, [{ path: '.isdlc/state.json', lines: ['-  "state_version": 7', '+  "state_version": 8'] }]),
      expect: 'allow' as const,
      contextIncludes: ['.isdlc/state.json', 'isdlc did not make this change'],
    })),
    {
      name: 'a forger who raises state_version too is still reported: no isdlc hook wrote that version',
      state: state(),
      files: { '.isdlc/hook-activity.log': '{"event":"PostToolUse","tool":"Agent","decision":"allow","state_version":7}\n' },
      payload: (project) =>
        bashEdited(project, 'python3 fix.py', [{ path: '.isdlc/state.json', lines: ['-  "state_version": 7', '+  "state_version": 8', '+  "forged": true'] }]),
      expect: 'allow',
      contextIncludes: ['.isdlc/state.json', 'isdlc did not make this change'],
      then: ({ project }) => expect(detailOf(project)).toMatchObject({ guarded_files: [{ file: '.isdlc/state.json', kind: 'state', change: 'modified' }] }),
    },
    {
      name: "isdlc's log growing while the command ran is its hooks appending",
      state: state(),
      payload: (project) => bashEdited(project, 'npm test', [{ path: '.isdlc/hook-activity.log', lines: ['+{"event":"PreToolUse"}'] }]),
      expect: 'allow',
      then: quiet,
    },
  ],
  invalid: [],
});

guardTable('unexpected-file-change', {
  valid: [
    {
      name: 'an isdlc command beside another command that writes is not a cover',
      state: state(),
      payload: (project) =>
        bashEdited(project, 'node .isdlc/bin/isdlc.cjs status && sed -i s/failed/passed/ .isdlc/state.json', [
          { path: '.isdlc/state.json', lines: ['-      "last_test_result": "failed"', '+      "last_test_result": "passed"'] },
        ]),
      expect: 'allow',
      contextIncludes: ['.isdlc/state.json'],
    },
    {
      name: 'a redirection after an isdlc command is not a cover either',
      state: state(),
      payload: (project) =>
        bashEdited(project, 'node .isdlc/bin/isdlc.cjs status --json > .isdlc/state.json', [{ path: '.isdlc/state.json', lines: ['-{', '+Workflow'] }]),
      expect: 'allow',
      contextIncludes: ['.isdlc/state.json'],
    },
    {
      name: "with no state file at all, still said: the files are isdlc's whatever the workflow",
      payload: (project) => bashEdited(project, 'echo {} > x && cp x .isdlc/config/workflows.json', [{ path: '.isdlc/config/workflows.json', created: true }]),
      expect: 'allow',
      contextIncludes: ['.isdlc/config/workflows.json'],
    },
  ],
  invalid: [],
});

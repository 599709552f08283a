import { guardTable, SANDBOXED_PROJECT } from '../../test/helpers/guard-table.js';
import { bashCall } from '../../test/helpers/payloads.js';

const P = '/project';
const at = (command: string) => (project: string) => bashCall(project, command);

guardTable('isdlc-program-guard', {
  valid: [
    { name: 'reading the program', payload: at('cat .isdlc/bin/isdlc.cjs | head'), expect: 'allow' },
    { name: 'running isdlc', payload: at('node .isdlc/bin/isdlc.cjs status'), expect: 'allow' },
    { name: 'removing a file of its own in .isdlc (the journal undoes it)', payload: at('rm .isdlc/config/README.md'), expect: 'allow' },
    { name: 'copying the program out', payload: at('cp .isdlc/bin/isdlc.cjs /tmp/isdlc-copy.cjs'), expect: 'allow' },
    { name: 'a fixture .isdlc in a subfolder', payload: at('rm -rf test/fixtures/x/.isdlc'), expect: 'allow' },
    { name: 'another project', payload: bashCall(P, 'rm -rf /elsewhere/.isdlc'), expect: 'allow' },
    { name: 'mentioning it in a commit message', payload: at('git commit -m "never rm -rf .isdlc"'), expect: 'allow' },
    {
      name: 'in the sandbox: a note, the OS refuses',
      files: SANDBOXED_PROJECT,
      payload: at('rm -rf .isdlc'),
      expect: 'allow',
      contextIncludes: ["isdlc's own program"],
    },
  ],
  invalid: [
    { name: 'rm -rf .isdlc', payload: at('rm -rf .isdlc'), expect: 'deny', reasonIncludes: ['.isdlc', 'every isdlc hook runs'] },
    { name: 'rm -rf .isdlc/ with a trailing slash', payload: at('rm -rf .isdlc/'), expect: 'deny' },
    { name: 'cd .isdlc && rm -rf bin (read from the folder the cd went to)', payload: at('cd .isdlc && rm -rf bin'), expect: 'deny', reasonIncludes: ['bin'] },
    { name: 'mv .isdlc aside', payload: at('mv .isdlc .isdlc-aside'), expect: 'deny' },
    { name: 'mv the bin folder aside', payload: at('mv .isdlc/bin .isdlc/bin.off'), expect: 'deny' },
    { name: 'a redirection over the executable', payload: at("echo 'process.exit(0)' > .isdlc/bin/isdlc.cjs"), expect: 'deny' },
    { name: 'ln -sf over the executable', payload: at('ln -sf /bin/true .isdlc/bin/isdlc.cjs'), expect: 'deny' },
    { name: 'cp over the executable', payload: at('cp /tmp/x.cjs .isdlc/bin/isdlc.cjs'), expect: 'deny' },
    { name: 'the absolute path', payload: (project) => bashCall(project, `rm -r ${project}/.isdlc`), expect: 'deny' },
    {
      name: 'a cd made to do nothing (function cd), then the removal',
      payload: at('function cd { :; }; cd src && rm -rf .isdlc/bin'),
      expect: 'deny',
      reasonIncludes: ['.isdlc/bin'],
    },
    {
      name: 'a cd undone by a DEBUG trap, then the removal',
      payload: at("cd test/fixtures/p && trap 'cd ../../..' DEBUG && rm -rf .isdlc/bin"),
      expect: 'deny',
    },
    { name: 'after a cd into .isdlc, the relative name', cwd: '.isdlc', payload: (project) => bashCall(`${project}/.isdlc`, 'rm -rf bin'), expect: 'deny' },
  ],
});

import { guardTable, SANDBOXED_PROJECT } from '../../test/helpers/guard-table.js';
import { bashCall } from '../../test/helpers/payloads.js';

const P = '/project';

guardTable('human-only-commands', {
  valid: [
    { name: 'isdlc status', payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs status'), expect: 'allow' },
    { name: 'recording a constitution check', payload: bashCall(P, 'npx isdlc constitution record --article IV --result compliant'), expect: 'allow' },
    { name: 'ordinary work that mentions escalation', payload: bashCall(P, 'grep -rn "approve" src/escalation.ts'), expect: 'allow' },
    {
      name: 'phase activate and complete are for agents',
      payload: bashCall(P, 'isdlc phase complete --summary "done" && isdlc phase activate'),
      expect: 'allow',
    },
    {
      name: 'a review that asks for more scrutiny (redo)',
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs phase review redo --note "missing edge cases"'),
      expect: 'allow',
    },
    { name: 'a review marked as under way', payload: bashCall(P, 'isdlc phase review review'), expect: 'allow' },
    { name: 'git', payload: bashCall(P, 'git commit -m "approve escalation flow"'), expect: 'allow' },
    // In the sandbox these cannot write; a mention is no longer refused, the model is told what they are for.
    {
      name: 'in the sandbox: the person-only command, with a note',
      files: SANDBOXED_PROJECT,
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation'),
      expect: 'allow',
      contextIncludes: ['is a decision for a person (approving an escalation); in the sandbox it changes nothing'],
    },
    {
      name: 'in the sandbox: an echo into notes that mentions one',
      files: SANDBOXED_PROJECT,
      payload: bashCall(P, 'echo "then the user runs isdlc phase skip --reason x" >> notes.md'),
      expect: 'allow',
    },
    { name: 'looking at the test definition', payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs tests && isdlc tests show --json'), expect: 'allow' },
    {
      name: 'starting, claiming and looking at a loop',
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs loop start --rule "npm test" "Fix it" && isdlc loop status && isdlc loop claim L-0123456789'),
      expect: 'allow',
    },
    // A mention runs nothing: only running the program is a person's decision.
    {
      name: 'an echo into the notes that mentions phase skip',
      payload: bashCall(P, 'echo "- a person runs isdlc phase skip when a gate must be overridden" >> docs/notes.md'),
      expect: 'allow',
    },
    {
      name: 'a commit message that mentions phase skip',
      payload: bashCall(P, 'git add -A && git commit -m "docs: explain when isdlc phase skip is used"'),
      expect: 'allow',
    },
    { name: 'a grep for escalation approve', payload: bashCall(P, 'grep -rn "isdlc escalation approve" docs src | head -20'), expect: 'allow' },
    // Programs that only print the text: a mention, whatever the interpreter.
    { name: 'python that prints the command', payload: bashCall(P, `python3 -c "print('isdlc phase skip')"`), expect: 'allow' },
    {
      name: 'python that prints escalation approve',
      payload: bashCall(P, `python3 -c "print('then a person runs isdlc escalation approve --phase 06')"`),
      expect: 'allow',
    },
    { name: 'node that logs the command', payload: bashCall(P, `node -e "console.log('isdlc loop cancel is for people')"`), expect: 'allow' },
    { name: 'perl that prints it with a newline', payload: bashCall(P, String.raw`perl -e 'print "isdlc phase skip\n"'`), expect: 'allow' },
    // git's options that only say where: still a commit message.
    {
      name: 'a commit in another folder whose message mentions phase skip',
      payload: bashCall(P, "git -C sub commit -qm 'isdlc phase skip notes'"),
      expect: 'allow',
    },
    { name: 'a log search with git -C and --no-pager', payload: bashCall(P, "git --no-pager -C sub log --grep 'isdlc phase skip'"), expect: 'allow' },
    {
      name: 'rg and printf with the command in a quoted argument',
      payload: bashCall(P, "rg -n 'isdlc (phase skip|escalation approve)' . ; printf '%s\\n' 'isdlc loop cancel is for people' >> NOTES.md"),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: "approving a loop's command rules",
      payload: bashCall(P, 'env -u AGENT_SHELL_MARKER node .isdlc/bin/isdlc.cjs loop approve L-0123456789'),
      expect: 'deny',
      reasonIncludes: ["letting a loop's command rules run without an OS sandbox"],
    },
    {
      name: 'acknowledging commits to a closed branch',
      payload: bashCall(P, 'npx isdlc branch acknowledge --note done'),
      expect: 'deny',
      reasonIncludes: ['acknowledging commits that reached a closed branch'],
    },
    {
      name: 'accepting a changed test definition',
      payload: bashCall(P, 'env -u AGENT_SHELL_MARKER node .isdlc/bin/isdlc.cjs tests accept'),
      expect: 'deny',
      reasonIncludes: ['accepting a change to what defines the test command'],
    },
    {
      name: 'cancelling a loop (the agent declares BLOCKED instead)',
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs loop cancel --reason "tests are flaky"'),
      expect: 'deny',
      reasonIncludes: ['cancelling an iteration loop', '<promise>BLOCKED</promise>'],
    },
    {
      name: 'the installed binary',
      payload: bashCall(P, 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation'),
      expect: 'deny',
      reasonIncludes: [
        'isdlc human-only-commands: Do not run `node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation`; stop and ask the user to run it in their own terminal',
        'a decision for a person',
        'their own terminal',
      ],
    },
    { name: 'through npx, chained after other work', payload: bashCall(P, 'npm test; npx isdlc escalation approve --phase 06-implementation'), expect: 'deny' },
    { name: 'the bin name', payload: bashCall(P, 'isdlc escalation approve --phase 06-implementation --note "fine"'), expect: 'deny' },
    { name: 'wrapped in bash -c', payload: bashCall(P, 'bash -c "isdlc escalation approve --phase 06-implementation"'), expect: 'deny' },
    {
      name: 'an absolute path to the binary',
      payload: bashCall(P, 'node "/home/dev/shop/.isdlc/bin/isdlc.cjs" escalation approve --phase 08-code-review'),
      expect: 'deny',
    },
    {
      name: 'overriding a closed gate',
      payload: bashCall(P, 'isdlc phase skip --reason "tests are flaky"'),
      expect: 'deny',
      reasonIncludes: ["overriding a phase's closed gate", 'isdlc phase skip'],
    },
    {
      name: 'run after an echo',
      payload: bashCall(P, 'echo x; isdlc phase skip --reason flaky'),
      expect: 'deny',
      reasonIncludes: ['`isdlc phase skip --reason flaky`'],
    },
    { name: 'inside $(...)', payload: bashCall(P, 'echo "$(isdlc phase skip --reason flaky)"'), expect: 'deny' },
    { name: 'inside backticks in a commit message', payload: bashCall(P, 'git commit -m "skipped `isdlc phase skip`"'), expect: 'deny' },
    { name: 'by eval', payload: bashCall(P, "eval 'isdlc escalation approve'"), expect: 'deny' },
    { name: 'through timeout', payload: bashCall(P, 'timeout 30 isdlc phase skip'), expect: 'deny' },
    { name: 'through find -exec', payload: bashCall(P, 'find . -maxdepth 0 -exec isdlc phase skip \\;'), expect: 'deny' },
    { name: 'npx -y with a version', payload: bashCall(P, 'npx -y isdlc@latest escalation approve'), expect: 'deny' },
    { name: 'with an option before the command', payload: bashCall(P, 'isdlc --dir . phase skip'), expect: 'deny' },
    { name: 'a mention piped into a shell runs it', payload: bashCall(P, 'echo "isdlc phase skip --reason flaky" | sh'), expect: 'deny' },
    { name: 'a mention fed to bash -s runs it', payload: bashCall(P, "printf 'isdlc escalation approve' | bash -s"), expect: 'deny' },
    { name: 'a mention in a variable run as the command', payload: bashCall(P, 'c="isdlc phase skip"; $c'), expect: 'deny' },
    { name: 'an alias of the command', payload: bashCall(P, "alias s='isdlc phase skip'; s"), expect: 'deny' },
    { name: 'the subcommand fed to isdlc by xargs', payload: bashCall(P, 'echo phase skip | xargs isdlc'), expect: 'deny' },
    // Text given to a program that may run it (found by an attacker): the mention counts as a run there.
    {
      name: 'inside sh -c behind timeout',
      payload: bashCall(P, "timeout 60 sh -c 'env -u AGENT_SHELL_MARKER node .isdlc/bin/isdlc.cjs phase skip --reason x'"),
      expect: 'deny',
    },
    {
      name: 'as a git alias',
      payload: bashCall(P, "git -c alias.x='!env -u AGENT_SHELL_MARKER node .isdlc/bin/isdlc.cjs phase skip --reason y' x"),
      expect: 'deny',
    },
    { name: 'find -exec sh -c', payload: bashCall(P, "find . -maxdepth 0 -exec sh -c 'isdlc loop cancel' \\;"), expect: 'deny' },
    { name: 'python os.system', payload: bashCall(P, `python3 -c "import os; os.system('node .isdlc/bin/isdlc.cjs phase skip --reason z')"`), expect: 'deny' },
    // A print that runs something: not only printing.
    { name: 'python print of a system call', payload: bashCall(P, `python3 -c "print(__import__('os').system('isdlc phase skip'))"`), expect: 'deny' },
    {
      name: 'python f-string that runs the command',
      payload: bashCall(P, String.raw`python3 -c 'print(f"{__import__(chr(111)+chr(115)).system(\"isdlc phase skip\")}")'`),
      expect: 'deny',
    },
    {
      name: 'node log of execSync',
      payload: bashCall(P, `node -e "console.log(require('child_process').execSync('isdlc phase skip').toString())"`),
      expect: 'deny',
    },
    { name: 'node -p of execSync', payload: bashCall(P, `node -p "require('child_process').execSync('isdlc escalation approve')"`), expect: 'deny' },
    { name: "ruby's interpolation runs it", payload: bashCall(P, `ruby -e 'puts "#{system(%q(isdlc phase skip))}"'`), expect: 'deny' },
    { name: "perl's interpolation runs it", payload: bashCall(P, `perl -e 'print "@{[ qx(isdlc phase skip) ]}"'`), expect: 'deny' },
    { name: 'a python print beside a run', payload: bashCall(P, `python3 -c "print('x'); import os; os.system('isdlc phase skip')"`), expect: 'deny' },
    { name: 'git -C then -c alias', payload: bashCall(P, "git -C sub -c alias.x='!isdlc phase skip' x"), expect: 'deny' },
    { name: 'the program through a variable', payload: bashCall(P, 'I=.isdlc/bin/isdlc.cjs; node $I phase skip'), expect: 'deny' },
    { name: 'the program through a glob', payload: bashCall(P, 'node .isdlc/bin/isdlc.cj? phase skip'), expect: 'deny' },
    {
      name: 'subcommand words piped through xargs into the program',
      payload: bashCall(P, "printf 'loop\\ncancel\\n' | xargs env -u AGENT_SHELL_MARKER node .isdlc/bin/isdlc.cjs"),
      expect: 'deny',
    },
    { name: 'approving a supervised review', payload: bashCall(P, 'npx isdlc phase review continue'), expect: 'deny', reasonIncludes: ['supervised workflow'] },
  ],
});

// Iteration loops through the hook `init` registered for each event (answered by the built CLI in this
// process), with real `npm test` runs in a real project. The agent starts the loop in its shell, the PostToolUse hook of that call binds
// the loop to the session, and every Stop is validated.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, decisionOf, FIXTURES, writeFile, writeJson } from '../helpers/project.js';
import { bashPassed } from '../helpers/payloads.js';
import { answerAsRegistered } from '../helpers/registered-hook.js';
import { agentStartsLoop, brokenAdd, fixedAdd, loops, makeLoop, projectWithTests, SESSION, stopWith } from '../helpers/loops.js';
import { noneWithArgWithin } from '../helpers/processes.js';

type Payload = Record<string, unknown>;

describe('a loop held by the registered Stop hook', () => {
  it('blocks iteration 1 with the failing npm test, then ends on iteration 2 when the tests pass and COMPLETE is declared', () => {
    const project = projectWithTests();
    const { start, bind } = agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '5', 'Make add() add'], { session_id: SESSION });
    expect(start.stdout).toMatch(/\[isdlc-loop L-[0-9a-f]{10} awaiting-session\]/);
    expect(bind.kind).toBe('allow');
    expect(bind.context).toMatch(/is now bound to this session/);
    expect(loops(project)[0]!.sessionId).toBe(SESSION);

    const first = stopWith(project, 'I wrote add().');
    expect(first.kind).toBe('block');
    expect(first.reason).toMatch(
      /^isdlc loop L-[0-9a-f]{10}: Fix npm test \(FAIL add\(1, 2\) should be 3, got -1\), then end your turn; iteration 1 of 5 failed\./,
    );
    expect(first.reason).toMatch(/<promise>COMPLETE<\/promise>/);
    expect(first.reason).toMatch(/`isdlc loop status`/);
    // The task and the whole output are in `isdlc loop status`, not in the reason the model gets twice.
    expect(cli(['loop', 'status', '--dir', project]).stdout).toMatch(/failing at iteration 1:[\s\S]*FAIL add\(1, 2\) should be 3, got -1/);

    fixedAdd(project);
    const second = stopWith(project, 'add() now adds; the tests pass.\n\n<promise>COMPLETE</promise>', { stop_hook_active: true });
    expect(second.kind).toBe('allow');
    expect(second.systemMessage).toMatch(/completed at iteration 2 of 5/);

    const [loop] = loops(project);
    expect(loop!.status).toBe('completed');
    expect(loop!.task.status).toBe('completed');
    expect(loop!.history.map((row) => [row.iteration, row.passed, row.signal, row.validatedBy])).toEqual([
      [1, false, 'CONTINUE', 'hook'],
      [2, true, 'COMPLETE', 'hook'],
    ]);
    // Over: the next stop is not held.
    expect(stopWith(project, 'Anything else?').kind).toBe('allow');
  });

  it('keeps working when COMPLETE is declared while a rule fails, and says the promise does not count yet', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], { session_id: SESSION });
    const answer = stopWith(project, 'All done!\n<promise>COMPLETE</promise>');
    expect(answer.kind).toBe('block');
    expect(answer.reason).toMatch(/does not count while a rule fails/);
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 2 });
  });

  it('ends on BLOCKED and tells the person why', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], { session_id: SESSION });
    const answer = stopWith(project, 'I cannot decide the rounding rule.\n\n<promise>BLOCKED</promise>\nReason: the spec does not say how to round.');
    expect(answer.kind).toBe('allow');
    expect(answer.systemMessage).toMatch(/blocked and needs you/);
    expect(answer.systemMessage).toMatch(/the spec does not say how to round/);
    const [loop] = loops(project);
    expect(loop).toMatchObject({ status: 'blocked', task: { status: 'blocked' } });
  });

  it('does not count a quoted or fenced promise, nor a bare COMPLETE', () => {
    const project = projectWithTests();
    fixedAdd(project);
    agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '9', 'Make add() add'], { session_id: SESSION });
    for (const message of [
      'When I am done I will write "<promise>COMPLETE</promise>".',
      'The protocol says:\n```\n<promise>COMPLETE</promise>\n```',
      'COMPLETE',
      '> <promise>COMPLETE</promise>',
      '<promise>complete</promise>',
    ]) {
      const answer = stopWith(project, message);
      expect(answer.kind, message).toBe('block');
      expect(answer.reason).toMatch(/passes every rule/);
    }
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 6 });
    // Whitespace inside the tag is normalised.
    expect(stopWith(project, 'Done.\n<promise>  COMPLETE </promise>').kind).toBe('allow');
    expect(loops(project)[0]!.status).toBe('completed');
  });

  it('escalates at the last iteration, and never blocks more often than the loop has iterations', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '3', '--circuit-breaker', '10', 'Make add() add'], { session_id: SESSION });
    const answers = [1, 2, 3, 4, 5].map(() => stopWith(project, 'Still trying.', { stop_hook_active: true }));
    expect(answers.map((answer) => answer.kind)).toEqual(['block', 'block', 'allow', 'allow', 'allow']);
    expect(answers[2]!.systemMessage).toMatch(/handed to you/);
    expect(answers[2]!.systemMessage).toMatch(/iteration 3 was the last of 3/);
    expect(loops(project)[0]).toMatchObject({ status: 'escalated', stopBlocks: 2, task: { status: 'blocked' } });
  });

  it('trips the circuit breaker after three failed iterations in a row', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], { session_id: SESSION });
    const kinds = [1, 2, 3].map(() => stopWith(project, 'Trying again.'));
    expect(kinds.map((answer) => answer.kind)).toEqual(['block', 'block', 'allow']);
    expect(kinds[2]!.systemMessage).toMatch(/circuit breaker: validation failed 3 iterations in a row/);
  });

  it('escalates on a quality regression: scores falling over three iterations by more than 10 points', () => {
    const project = projectWithTests();
    fixedAdd(project);
    writeFile(join(project, 'a.txt'), 'a');
    writeFile(join(project, 'b.txt'), 'b');
    const rules = ['--rule', 'npm test', '--rule', 'test -f a.txt', '--rule', 'test -f b.txt'];
    agentStartsLoop(project, [...rules, '--circuit-breaker', '5', 'Keep everything green'], { session_id: SESSION });
    expect(stopWith(project, 'Working.').kind).toBe('block'); // 100, no promise
    brokenAdd(project);
    expect(stopWith(project, 'Working.').kind).toBe('block'); // 66.7
    rmSync(join(project, 'a.txt'));
    const third = stopWith(project, 'Working.'); // 33.3
    expect(third.kind).toBe('allow');
    expect(third.systemMessage).toMatch(/quality regression/);
  });

  it('never holds another session, and holds nobody while the loop is unclaimed', () => {
    const project = projectWithTests();
    const start = cli(['loop', 'start', '--rule', 'npm test', 'Make add() add'], { cwd: project });
    expect(start.status, start.stderr).toBe(0);
    expect(stopWith(project, 'Hello.').kind).toBe('allow'); // unclaimed
    const loopId = /L-[0-9a-f]{10}/.exec(start.stdout)![0];
    const claim = cli(['loop', 'claim', loopId], { cwd: project, env: { CLAUDECODE: '1' } });
    answerAsRegistered(project, { ...bashPassed(project, `node .isdlc/bin/isdlc.cjs loop claim ${loopId}`, claim.stdout), session_id: SESSION });
    expect(stopWith(project, 'Hello.', { session_id: 'another-session' }).kind).toBe('allow');
    expect(loops(project)[0]).toMatchObject({ iteration: 1 });
    expect(stopWith(project, 'Hello.').kind).toBe('block');
  });

  it('holds a subagent that started the loop at its SubagentStop, not the main agent at its Stop', () => {
    const project = projectWithTests();
    const subagent = { session_id: SESSION, agent_id: 'a7154de3fc719065c', agent_type: 'software-developer' };
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], subagent);
    expect(stopWith(project, 'Main agent done.').kind).toBe('allow');
    const subStop = (message: string) =>
      decisionOf(
        answerAsRegistered(project, {
          ...(JSON.parse(readFileSync(join(FIXTURES, 'payloads', 'subagent-stop.json'), 'utf8')) as Payload),
          ...subagent,
          cwd: project,
          last_assistant_message: message,
        }),
      );
    expect(subStop('Done.').kind).toBe('block');
    fixedAdd(project);
    expect(subStop('Fixed.\n<promise>COMPLETE</promise>').kind).toBe('allow');
  });

  it("takes its defaults from the agent's phase config with --agent, and flags override them", () => {
    const project = projectWithTests();
    const start = cli(['loop', 'start', '--agent', 'software-developer', '--json', 'Implement CSV export'], { cwd: project });
    expect(start.status, start.stderr).toBe(0);
    const { loop } = JSON.parse(start.stdout) as {
      loop: { config: { maxIterations: number; completionPromises: string[]; validationRules: { name: string; command: string }[] } };
    };
    // 06-implementation's test_iteration in the bundled iteration-requirements.json.
    expect(loop.config).toMatchObject({ maxIterations: 10, completionPromises: ['<promise>COMPLETE</promise>', '<promise>BLOCKED</promise>'] });
    expect(loop.config.validationRules).toMatchObject([{ name: 'tests_pass', command: 'npm test' }]);

    const overridden = cli(['loop', 'start', '--agent', 'software-developer', '--max-iterations', '4', '--rule', 'npm run lint', '--json', 'Tidy up'], {
      cwd: project,
    });
    expect(JSON.parse(overridden.stdout).loop.config).toMatchObject({ maxIterations: 4, validationRules: [{ command: 'npm run lint' }] });

    const unknown = cli(['loop', 'start', '--agent', 'nobody', 'Anything'], { cwd: project });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no defaults for agent "nobody": the skills manifest gives it no phase');

    const noTests = cli(['loop', 'start', '--agent', 'requirements-analyst', 'Anything'], { cwd: project });
    expect(noTests.status).toBe(2);
    expect(noTests.stderr).toContain('its phase (01-requirements) does not iterate on tests');
  });

  it("follows the project's own config, and an iteration: frontmatter a person wrote still wins", () => {
    const project = projectWithTests();
    writeJson(join(project, '.isdlc/config/iteration-requirements.json'), {
      phase_requirements: { '06-implementation': { test_iteration: { enabled: true, max_iterations: 6 } } },
    });
    const fromConfig = cli(['loop', 'start', '--agent', 'software-developer', '--json', 'Implement it'], { cwd: project });
    expect(fromConfig.status, fromConfig.stderr).toBe(0);
    expect(JSON.parse(fromConfig.stdout).loop.config.maxIterations).toBe(6);

    writeFile(
      join(project, '.claude/agents/software-developer.md'),
      '---\nname: software-developer\ndescription: ours\niteration:\n  maxIterations: 3\n  completionPromises:\n    - "<promise>SHIPPED</promise>"\n    - "<promise>BLOCKED</promise>"\n  validationRules:\n    - compiles\n---\nOur developer.\n',
    );
    const fromFile = cli(['loop', 'start', '--agent', 'software-developer', '--json', 'Ship it'], { cwd: project });
    expect(fromFile.status, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).loop.config).toMatchObject({
      maxIterations: 3,
      completionPromises: ['<promise>SHIPPED</promise>', '<promise>BLOCKED</promise>'],
      validationRules: [{ name: 'compiles' }],
    });

    writeFile(join(project, '.claude/agents/qa-engineer.md'), '---\nname: qa-engineer\niteration:\n  enabled: false\n---\n');
    const off = cli(['loop', 'start', '--agent', 'qa-engineer', 'Review'], { cwd: project });
    expect(off.status).toBe(2);
    expect(off.stderr).toContain('says iteration is not enabled for this agent');
  });

  it('refuses bad input with a clear line', () => {
    const project = projectWithTests();
    const cases: [string[], RegExp][] = [
      [['loop', 'start', '--max-iterations', '0', 'X'], /--max-iterations needs a whole number of at least 1/],
      [['loop', 'start', '--max-iterations', '500', 'X'], /maxIterations/],
      [['loop', 'start', '--rule', '', 'X'], /rule/i],
      [['loop', 'cancel'], /no loop is running/],
      [['loop', 'claim', 'L-0000000000'], /no loop L-0000000000/],
    ];
    for (const [args, message] of cases) {
      const run = cli([...args, '--dir', project]);
      expect(run.status, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });

  it.skipIf(process.platform === 'win32')('stops a hanging rule and everything it started at the rule timeout, and holds the turn', async () => {
    const project = projectWithTests();
    // A rule with its own timeout, as the MCP tools or an agent's frontmatter give it.
    // Marked so it can be found from here: inside the rules' sandbox `$!` is a pid of its own namespace.
    const mark = `30.${process.pid}7`;
    makeLoop(project, {
      sessionId: SESSION,
      config: { validationRules: [{ type: 'command', name: 'hangs', command: `sleep ${mark} & sleep 30`, timeoutSeconds: 1 }] },
    });
    const began = Date.now();
    const answer = stopWith(project, 'Waiting.');
    expect(Date.now() - began).toBeLessThan(15_000);
    expect(answer.kind).toBe('block');
    expect(answer.reason).toMatch(/Fix hangs \(`sleep 30\.\d+ & .*` was still running at its timeout/);
    expect(cli(['loop', 'status', '--dir', project]).stdout).toMatch(
      /hangs: `sleep 30\.\d+ & .*` was still running at its timeout of 1 s and was stopped with every process it started/,
    );
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it('is ended by a person with `isdlc loop cancel` (not by the agent), after which the stop is free', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', 'Make add() add'], { session_id: SESSION });
    expect(cli(['status', '--dir', project]).stdout).toMatch(/Loop L-[0-9a-f]{10} running: "Make add\(\) add", iteration 1 of 10, held to session /);
    const byAgent = cli(['loop', 'cancel', '--dir', project], { env: { CLAUDECODE: '1' } });
    expect(byAgent.status).toBe(2);
    expect(byAgent.stderr).toContain('cancelling an iteration loop is a decision for a person');
    expect(stopWith(project, 'Hello.').kind).toBe('block');
    expect(cli(['loop', 'cancel', '--dir', project]).status).toBe(0);
    expect(stopWith(project, 'Hello.').kind).toBe('allow');
    expect(loops(project)[0]).toMatchObject({ status: 'cancelled' });
    expect(cli(['status', '--dir', project]).stdout).not.toContain('running:');
  });
});

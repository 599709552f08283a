// The engine's rules, with guards made for the test: fixed order, first deny wins, notes accumulate,
// a throwing guard fails open, state is read at most once and written at most once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineGuard, type Guard } from '../../src/engine/guard.js';
import { checkGuards, runHook } from '../../src/engine/run-hook.js';
import { GUARDS } from '../../src/guards/index.js';
import { TOOL_CALL_GUARDS } from '../../src/guards/for-tool-calls.js';
import { TOOL_RESULT_GUARDS } from '../../src/guards/for-tool-results.js';
import { TURN_GUARDS } from '../../src/guards/for-turns.js';
import type { HookEventName } from '../../src/events/hook-event.js';
import { cli, decisionOf, hook, initedProject, readJson, REPO } from '../helpers/project.js';
import { HOOK_HOST, GUARDED } from '../helpers/hosts.js';
import { guardsWithHosts, HOSTS } from '../../src/hosts/index.js';
import { HOST_TOOL_CALL_GUARDS } from '../../src/hosts/tool-call-guards.js';
import { HOST_TOOL_RESULT_GUARDS } from '../../src/hosts/tool-result-guards.js';
import { HOST_TURN_GUARDS } from '../../src/hosts/turn-guards.js';
import { reactsInFamily, type EventFamily } from '../../src/entry/event-family.js';

const agentCall = (project: string) =>
  JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Agent', cwd: project, tool_input: { subagent_type: 'general-purpose', prompt: 'x' } });

function run(project: string, guards: Guard[], payload = agentCall(project)) {
  return runHook({ host: HOOK_HOST, guarded: GUARDED, payload, env: {}, cwd: project, projectDir: project, guards });
}

const noting = (id: string, text: string) => defineGuard({ id, description: 'notes', on: { PreToolUse: ['agent'] }, check: ({ note }) => note(text) });
const denying = (id: string, reason: string) => defineGuard({ id, description: 'denies', on: { PreToolUse: ['agent'] }, check: ({ deny }) => deny(reason) });

describe('dispatch', () => {
  it('runs guards in registry order; the first deny wins and later guards do not run', () => {
    const project = initedProject();
    const out = run(project, [noting('first', 'one'), denying('second', 'no'), denying('third', 'never'), noting('fourth', 'never')]);
    expect(out.entry).toMatchObject({ decision: 'deny', guard: 'second', reason: 'no', ran: ['first', 'second'], notes: ['one'] });
    expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecisionReason).toBe('no');
  });

  it('accumulates notes from every guard into one additionalContext', () => {
    const project = initedProject();
    const out = run(project, [noting('a', 'alpha'), noting('b', 'beta')]);
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'alpha\n\nbeta' } });
  });

  it('only runs guards that react to the event and tool kind', () => {
    const project = initedProject();
    const shellOnly = defineGuard({ id: 'shell-only', description: 'x', on: { PreToolUse: ['shell'] }, check: ({ deny }) => deny('no') });
    const stopOnly = defineGuard({ id: 'stop-only', description: 'x', on: { Stop: true }, check: ({ deny }) => deny('no') });
    expect(run(project, [shellOnly, stopOnly]).entry['decision']).toBe('allow');
    expect(run(project, [shellOnly, stopOnly]).entry['ran']).toBeUndefined();
  });

  it('a guard that throws is skipped and logged; the action goes ahead', () => {
    const project = initedProject();
    const throwing = defineGuard({
      id: 'throwing',
      description: 'x',
      on: { PreToolUse: ['agent'] },
      check: () => {
        throw new Error('boom');
      },
    });
    const out = run(project, [throwing, noting('after', 'still ran')]);
    expect(out.entry).toMatchObject({ decision: 'allow', failures: [{ guard: 'throwing', error: 'boom' }], notes: ['still ran'] });
  });

  describe("a guard that throws while judging a write to isdlc's own files denies it", () => {
    const throwingOn = defineGuard({
      id: 'throwing',
      description: 'x',
      on: { PreToolUse: ['write', 'edit', 'notebook', 'shell'], PostToolUse: ['write'] },
      check: () => {
        throw new Error('boom');
      },
    });
    const call = (project: string, tool: string, input: Record<string, unknown>, event = 'PreToolUse') =>
      JSON.stringify({ hook_event_name: event, tool_name: tool, cwd: project, tool_input: input });
    const attempt = (project: string, payload: string) => run(project, [throwingOn], payload);

    it.each([
      ['Write', '.isdlc/state.json', { content: '{}' }],
      ['Write', '.isdlc//config/../state.json', { content: '{}' }],
      ['Edit', '.isdlc/config/iteration-requirements.json', { old_string: 'a', new_string: 'b' }],
      ['MultiEdit', '.isdlc/bin/isdlc.cjs', { edits: [{ old_string: 'a', new_string: 'b' }] }],
      ['Write', '.claude/settings.json', { content: '{}' }],
    ])('%s of %s', (tool, path, input) => {
      const project = initedProject();
      const out = attempt(project, call(project, tool, { file_path: path, ...input }));
      expect(out.entry).toMatchObject({ decision: 'deny', guard: 'throwing', failures: [{ guard: 'throwing', error: 'boom' }], ran: ['throwing'] });
      const reason = JSON.parse(out.stdout).hookSpecificOutput.permissionDecisionReason as string;
      for (const text of [
        'isdlc throwing: Do not retry',
        'the throwing guard failed while judging it (boom)',
        "one of isdlc's own files",
        '.isdlc/hook-activity.log',
      ])
        expect(reason).toContain(text);
      expect(JSON.parse(out.stdout).systemMessage).toContain(`the throwing guard failed (boom) while judging a ${tool}`);
    });

    it('a NotebookEdit through a symlink into .isdlc/, and shell commands that write there', () => {
      const project = initedProject();
      symlinkSync('.isdlc/config', join(project, 'cfg'));
      expect(attempt(project, call(project, 'NotebookEdit', { notebook_path: 'cfg/notes.ipynb', new_source: 'x' })).entry['decision']).toBe('deny');
      for (const command of [
        'echo {} > .isdlc/config/iteration-requirements.json',
        'cp /tmp/x "$CLAUDE_PROJECT_DIR/.isdlc/bin/isdlc.cjs"',
        'rm -rf .isdlc',
        'sed -i s/a/b/ .mcp.json',
      ]) {
        expect(attempt(project, call(project, 'Bash', { command })).entry, command).toMatchObject({ decision: 'deny', guard: 'throwing' });
      }
    });

    it('everywhere else it still fails open', () => {
      const project = initedProject();
      mkdirSync(join(project, 'test/fixtures/x/.isdlc'), { recursive: true });
      for (const payload of [
        call(project, 'Write', { file_path: 'src/a.ts', content: 'x' }),
        call(project, 'Write', { file_path: 'test/fixtures/x/.isdlc/state.json', content: '{}' }),
        call(project, 'Edit', { file_path: '/tmp/elsewhere/.isdlc/state.json', old_string: 'a', new_string: 'b' }),
        call(project, 'Bash', { command: 'cat .isdlc/state.json && node .isdlc/bin/isdlc.cjs status' }),
        call(project, 'Bash', { command: 'npm test > test-output.txt' }),
        call(project, 'Write', { file_path: '.isdlc/state.json', content: '{}' }, 'PostToolUse'),
      ]) {
        expect(attempt(project, payload).entry, payload).toMatchObject({ decision: 'allow', failures: [{ guard: 'throwing', error: 'boom' }] });
      }
    });
  });

  it('reads state at most once, only when a guard looks, and writes it once for all updates', () => {
    const project = initedProject();
    let reads = 0;
    const looker = (id: string) =>
      defineGuard({
        id,
        description: 'x',
        on: { PreToolUse: ['agent'] },
        check: ({ state, update }) => {
          reads += state ? 1 : 0;
          update((draft) => {
            draft[id] = ((draft[id] as number | undefined) ?? 0) + 1;
          });
        },
      });
    const before = readJson(join(project, '.isdlc/state.json'))['state_version'] as number;
    const out = run(project, [looker('a'), looker('b'), looker('c')]);
    expect(reads).toBe(3);
    const after = readJson(join(project, '.isdlc/state.json'));
    expect(after).toMatchObject({ a: 1, b: 1, c: 1, state_version: before + 1 });
    expect(out.entry['state_version']).toBe(before + 1);

    const silent = defineGuard({ id: 'silent', description: 'x', on: { PreToolUse: ['agent'] }, check: () => undefined });
    const untouched = readFileSync(join(project, '.isdlc/state.json'), 'utf8');
    run(project, [silent]);
    expect(readFileSync(join(project, '.isdlc/state.json'), 'utf8')).toBe(untouched);
  });

  it('a guard with a broken definition is not run, and is reported', () => {
    const project = initedProject();
    const broken = { id: 'broken', description: 'x', on: { PreToolUse: ['agent'] } } as unknown as Guard;
    const out = run(project, [broken]);
    expect(out.entry).toMatchObject({ decision: 'allow', broken_guards: ['broken'] });
    expect(checkGuards([broken]).problems).toEqual(['broken has no check function']);
  });
});

describe('dry run (ISDLC_DRY_RUN=1)', () => {
  it('answers as usual but writes nothing: no state, no log, a corrupt file left where it is', () => {
    const project = initedProject();
    cli(['workflow', 'start', 'feature', '--dir', project]);
    const payload = { hook_event_name: 'PreToolUse', tool_name: 'Agent', cwd: project, tool_input: { subagent_type: 'software-developer' } };
    const stateBefore = readFileSync(join(project, '.isdlc/state.json'), 'utf8');
    const dry = spawnSync(process.execPath, [join(REPO, 'dist/isdlc.cjs'), 'hook'], {
      input: JSON.stringify(payload),
      env: { ...process.env, CLAUDE_PROJECT_DIR: project, ISDLC_DRY_RUN: '1' },
      encoding: 'utf8',
    });
    expect(decisionOf({ status: dry.status, stdout: dry.stdout, stderr: dry.stderr }).kind).toBe('deny');
    expect(dry.stderr).toContain('dry run');
    expect(existsSync(join(project, '.isdlc/hook-activity.log'))).toBe(false);
    expect(readFileSync(join(project, '.isdlc/state.json'), 'utf8')).toBe(stateBefore);

    const writer = defineGuard({
      id: 'writer',
      description: 'x',
      on: { PreToolUse: ['agent'] },
      check: ({ update }) => update((draft) => void (draft['x'] = 1)),
    });
    const out = runHook({
      host: HOOK_HOST,
      guarded: GUARDED,
      payload: JSON.stringify(payload),
      env: { ISDLC_DRY_RUN: '1' },
      cwd: project,
      projectDir: project,
      guards: [writer],
    });
    expect(out.entry['would_write_state']).toBe(true);
    expect(readFileSync(join(project, '.isdlc/state.json'), 'utf8')).toBe(stateBefore);

    writeFileSync(join(project, '.isdlc/state.json'), '{ corrupt');
    runHook({
      host: HOOK_HOST,
      guarded: GUARDED,
      payload: JSON.stringify(payload),
      env: { ISDLC_DRY_RUN: '1' },
      cwd: project,
      projectDir: project,
      guards: guardsWithHosts(GUARDS),
    });
    expect(readFileSync(join(project, '.isdlc/state.json'), 'utf8')).toBe('{ corrupt');
  });
});

describe('the registry', () => {
  it('every registered guard is well formed and loads', () => {
    expect(checkGuards(GUARDS).problems).toEqual([]);
  });

  it('the built hook bundles report, between them, every registered guard through `isdlc hook --check`', () => {
    const run = cli(['hook', '--check']);
    expect(run.status).toBe(0);
    const reports = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { bundle: string; guards: string[]; problems: string[] });
    expect(reports.map((r) => r.bundle)).toEqual(['tool-call', 'tool-result', 'turn']);
    expect(reports.flatMap((r) => r.problems)).toEqual([]);
    expect(new Set(reports.flatMap((r) => r.guards))).toEqual(new Set(guardsWithHosts(GUARDS).map((guard) => guard.id)));
  });

  it("each bundle's guards are the registry's guards for its events, in the registry's order", () => {
    const families: [readonly Guard[], HookEventName[]][] = [
      [TOOL_CALL_GUARDS, ['PreToolUse']],
      [TOOL_RESULT_GUARDS, ['PostToolUse', 'PostToolUseFailure']],
      [TURN_GUARDS, ['Stop', 'SubagentStop', 'SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']],
    ];
    for (const [bundle, events] of families) {
      expect(bundle.map((g) => g.id)).toEqual(GUARDS.filter((g) => events.some((event) => g.on[event] !== undefined)).map((g) => g.id));
    }
  });

  it("each bundle holds the hosts' guards that react to its events, and no other", () => {
    const hostGuards = HOSTS.flatMap((host) => host.guards);
    const families: [readonly Guard[], EventFamily][] = [
      [HOST_TOOL_CALL_GUARDS, 'tool-call'],
      [HOST_TOOL_RESULT_GUARDS, 'tool-result'],
      [HOST_TURN_GUARDS, 'turn'],
    ];
    for (const [bundle, family] of families)
      expect(
        bundle.map((g) => g.id),
        family,
      ).toEqual(hostGuards.filter((g) => reactsInFamily(g, family)).map((g) => g.id));
  });

  it("the built tool-call bundle runs the hosts' guards after the core's rules that deny and before branch-evidence", () => {
    const toolCall = cli(['hook', '--check'])
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { bundle: string; guards: string[] })
      .find((r) => r.bundle === 'tool-call')!;
    const at = (id: string): number => toolCall.guards.indexOf(id);
    expect(at('hook-settings-guard')).toBeGreaterThan(at('state-write-validator'));
    expect(at('hook-settings-guard')).toBe(at('branch-evidence') - 1);
  });

  it('every registered guard has its table of cases beside it', () => {
    for (const guard of GUARDS) expect(existsSync(join(REPO, 'src/guards', `${guard.id}.test.ts`)), guard.id).toBe(true);
    for (const host of HOSTS) {
      for (const guard of host.guards) expect(existsSync(join(REPO, 'src/hosts', host.hook.id, `${guard.id}.test.ts`)), guard.id).toBe(true);
    }
  });

  it('--guards runs only the named guards; an unknown name is logged', () => {
    const project = initedProject();
    cli(['workflow', 'start', 'feature', '--dir', project]);
    const payload = { hook_event_name: 'PreToolUse', tool_name: 'Agent', cwd: project, tool_input: { subagent_type: 'software-developer' } };
    expect(decisionOf(hook(project, payload)).kind).toBe('deny');
    expect(decisionOf(hook(project, payload, ['--guards', 'no-such-guard'])).kind).toBe('allow');
    expect(decisionOf(hook(project, payload, ['--guards', 'phase-sequence-guard'])).kind).toBe('deny');
  });

  it('--event supplies a missing hook_event_name', () => {
    const project = initedProject();
    cli(['workflow', 'start', 'feature', '--dir', project]);
    const payload = { tool_name: 'Agent', cwd: project, tool_input: { subagent_type: 'software-developer' } };
    expect(decisionOf(hook(project, payload)).kind).toBe('allow');
    expect(decisionOf(hook(project, payload, ['--event', 'PreToolUse'])).kind).toBe('deny');
  });
});

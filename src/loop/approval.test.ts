import { describe, expect, it } from 'vitest';
import type { OsSandboxSupport } from '../sandbox/os-sandbox.js';
import {
  approvalNote,
  awaitingApproval,
  commandRuleList,
  commandRulesStatus,
  ruleContext,
  waitingForAgentMessage,
  waitingForPersonMessage,
} from './approval.js';
import { parseIterationConfig } from './loop-config.js';

const SANDBOX: OsSandboxSupport = { ok: true, kind: 'bubblewrap' };
const NONE: OsSandboxSupport = { ok: false, why: 'bubblewrap (bwrap) is not installed', install: 'apt-get install bubblewrap' };

function loop(rules: unknown[], approved: string | null = null) {
  return {
    id: 'L-0123456789',
    config: parseIterationConfig({ validationRules: rules }),
    rulesApprovedBy: approved,
    rulesApprovedAt: approved === null ? null : '2025-01-01T00:00:00.000Z',
  };
}

const COMMANDS = ['tests_pass', { type: 'command', command: ['node', '--test'] }, { type: 'command', command: 'exit 1', enabled: false }];
const NO_COMMANDS = [{ type: 'file_exists', path: 'README.md' }];

describe('awaitingApproval', () => {
  it.each<[string, unknown[], string | null, OsSandboxSupport, boolean]>([
    ["an agent's command rules, no sandbox", COMMANDS, null, NONE, true],
    ["an agent's command rules, in the sandbox", COMMANDS, null, SANDBOX, false],
    ['approved command rules, no sandbox', COMMANDS, 'ada', NONE, false],
    ['no command rules, no sandbox', NO_COMMANDS, null, NONE, false],
    ['only a disabled command rule', [{ type: 'command', command: 'exit 1', enabled: false }], null, NONE, false],
  ])('%s: %s', (_name, rules, approved, sandbox, waits) => {
    expect(awaitingApproval(loop(rules, approved), sandbox)).toBe(waits);
  });
});

describe('what is said', () => {
  it('lists the enabled command rules as commands', () => {
    expect(commandRuleList(loop(COMMANDS))).toEqual(['`npm test`', '`node --test`']);
  });

  it('tells the person what to run and what follows', () => {
    expect(waitingForPersonMessage(loop(COMMANDS), NONE)).toBe(
      'isdlc: loop L-0123456789 waits for your approval before its command rules run (`npm test`, `node --test`): no OS sandbox here ' +
        '(bubblewrap (bwrap) is not installed), and the agent set them. If they may run with your rights, run `isdlc loop approve L-0123456789` ' +
        'in your own terminal, then ask the agent to go on. Until then its stops are not validated. ' +
        'Or install the sandbox (`apt-get install bubblewrap`): rules run in it without approval.',
    );
    expect(waitingForPersonMessage(loop(COMMANDS), { ok: false, why: 'switched off' })).toMatch(/Until then its stops are not validated\.$/);
  });

  it('tells the agent what to ask for, and that nothing was recorded', () => {
    const message = waitingForAgentMessage(loop(COMMANDS), NONE);
    expect(message).toMatch(
      /^Loop L-0123456789: its command rules \(`npm test`, `node --test`\) are waiting for a person's approval: run `isdlc loop approve L-0123456789` in your own terminal, which you cannot do/,
    );
    expect(message).toMatch(
      /Ask the person to run `isdlc loop approve L-0123456789` in their own terminal, then validate again\. Nothing was run or recorded\.$/,
    );
  });

  it.each<[string, unknown[], string | null, OsSandboxSupport, RegExp | '']>([
    [
      'waits',
      COMMANDS,
      null,
      NONE,
      /^ Its command rules run only after a person approves them \(no OS sandbox here \(.*\)\): ask the person to run `isdlc loop approve L-0123456789`/,
    ],
    ['sandboxed', COMMANDS, null, SANDBOX, ''],
    ['approved', COMMANDS, 'ada', NONE, ''],
  ])('the note at start when it %s', (_name, rules, approved, sandbox, note) => {
    const said = approvalNote(loop(rules, approved), sandbox);
    if (note === '') expect(said).toBe('');
    else expect(said).toMatch(note);
  });

  it.each<[string, unknown[], string | null, OsSandboxSupport, string | undefined]>([
    ['sandboxed', COMMANDS, null, SANDBOX, "command rules run in an OS sandbox (bubblewrap) where isdlc's files are read-only"],
    [
      'approved',
      COMMANDS,
      'ada (isdlc loop approve)',
      NONE,
      'command rules run without an OS sandbox (bubblewrap (bwrap) is not installed), approved by ada (isdlc loop approve) at 2025-01-01T00:00:00.000Z',
    ],
    [
      'waiting',
      COMMANDS,
      null,
      NONE,
      "command rules waiting for a person's approval: run `isdlc loop approve L-0123456789` in your own terminal: no OS sandbox here (bubblewrap (bwrap) is not installed), and an agent set them",
    ],
    ['no command rules', NO_COMMANDS, null, NONE, undefined],
  ])('status when %s', (_name, rules, approved, sandbox, line) => {
    expect(commandRulesStatus(loop(rules, approved), sandbox)).toBe(line);
  });

  it("status asked in the agent's shell, which cannot start a sandbox of its own: says what decides", () => {
    expect(commandRulesStatus(loop(COMMANDS), NONE, true)).toBe(
      "command rules set by the agent: they run in an OS sandbox where isdlc's hooks can start one, else they wait for a person's `isdlc loop approve L-0123456789`",
    );
    expect(commandRulesStatus(loop(COMMANDS), SANDBOX, true)).toMatch(/^command rules run in an OS sandbox/);
  });

  it('gives the rules their loop and whether a person vouched', () => {
    expect(ruleContext(loop(COMMANDS))).toEqual({ id: 'L-0123456789', approvedByPerson: false });
    expect(ruleContext(loop(COMMANDS, 'ada'))).toEqual({ id: 'L-0123456789', approvedByPerson: true });
  });
});

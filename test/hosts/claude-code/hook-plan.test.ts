// What init registers for each Claude Code version, and when it refuses, as a table.
import { describe, expect, it } from 'vitest';
import { describePlan, planHooks, resolveTarget, type HookPlan } from '../../../src/hosts/claude-code/hook-plan.js';
import { eventsOf, type HookForm } from '../../../src/hosts/claude-code/settings.js';

const ALL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'UserPromptSubmit', 'UserPromptExpansion', 'SessionStart'];
const WITHOUT_UPE = ALL_EVENTS.filter((event) => event !== 'UserPromptExpansion');

function plan(version: string, requested?: HookForm): HookPlan {
  const result = planHooks({ version, from: 'flag' }, requested);
  if ('refused' in result) throw new Error(result.refused);
  return result;
}

describe('planHooks', () => {
  it.each([
    // version, form asked for, form registered, events
    ['2.1.332', undefined, 'exec', ALL_EVENTS],
    ['2.1.139', undefined, 'exec', ALL_EVENTS],
    ['2.1.138', undefined, 'shell', ALL_EVENTS],
    ['2.1.116', undefined, 'shell', ALL_EVENTS],
    ['2.1.115', undefined, 'shell', WITHOUT_UPE],
    ['2.1.101', undefined, 'shell', WITHOUT_UPE],
    ['2.1.100', undefined, 'shell', WITHOUT_UPE],
    ['2.1.332', 'shell', 'shell', ALL_EVENTS],
    ['2.1.100', 'shell', 'shell', WITHOUT_UPE],
    ['2.1.139', 'exec', 'exec', ALL_EVENTS],
  ] as const)('Claude Code %s, --hook-form %s: %s form on %j', (version, requested, form, events) => {
    const result = plan(version, requested);
    expect(result.form).toBe(form);
    expect(eventsOf(result.registrations)).toEqual(events);
  });

  it.each([
    [
      '2.1.99',
      undefined,
      /older than 2\.1\.100, the oldest Claude Code isdlc supports.*`claude update`.*npm i -g @anthropic-ai\/claude-code@latest.*isdlc changed nothing/,
    ],
    ['2.1.63', 'shell', /older than 2\.1\.100/],
    [
      '2.1.138',
      'exec',
      /--hook-form exec needs Claude Code 2\.1\.139 or newer: Claude Code 2\.1\.138 .* runs `node` without its arguments.*Leave out --hook-form.*isdlc changed nothing/,
    ],
    ['2.1.100', 'exec', /--hook-form exec needs Claude Code 2\.1\.139/],
  ] as const)('refuses Claude Code %s with --hook-form %s', (version, requested, message) => {
    const result = planHooks({ version, from: 'flag' }, requested);
    expect(result).toHaveProperty('refused');
    expect((result as { refused: string }).refused).toMatch(message);
  });

  it('tells a detected version that is wrong how to say the right one; a flag needs no such hint', () => {
    const detected = planHooks({ version: '2.1.90', from: 'claude --version' }) as { refused: string };
    expect(detected.refused).toContain('Claude Code 2.1.90 (found by `claude --version`)');
    expect(detected.refused).toContain('pass `--claude-version X`');
    expect((planHooks({ version: '2.1.90', from: 'flag' }) as { refused: string }).refused).not.toContain('pass `--claude-version X`');
  });
});

describe('resolveTarget', () => {
  it('takes the flag first, then `claude --version`, then assumes the newest known and keeps the reason', () => {
    const never = (): never => {
      throw new Error('detection must not run when the flag is given');
    };
    expect(resolveTarget('2.1.120', never)).toEqual({ version: '2.1.120', from: 'flag' });
    expect(resolveTarget(undefined, () => ({ found: true, version: '2.1.138', ms: 120 }))).toEqual({ version: '2.1.138', from: 'claude --version' });
    expect(resolveTarget(undefined, () => ({ found: false, reason: 'no `claude` command on PATH', ms: 1 }))).toEqual({
      version: '2.1.332',
      from: 'assumed',
      why: 'no `claude` command on PATH',
    });
  });
});

describe('describePlan', () => {
  it.each([
    ['2.1.332', 'registered for Claude Code 2.1.332 (from --claude-version): exec-form hooks (`node` with arguments, no shell) on 8 events'],
    ['2.1.138', 'registered for Claude Code 2.1.138 (from --claude-version): shell-form hooks (one command line each) on 8 events (exec form needs 2.1.139)'],
    [
      '2.1.110',
      'registered for Claude Code 2.1.110 (from --claude-version): shell-form hooks (one command line each) on 7 events (exec form needs 2.1.139; UserPromptExpansion left out: it fires from 2.1.116)',
    ],
  ])('%s', (version, line) => {
    expect(describePlan(plan(version))).toBe(line);
  });
});

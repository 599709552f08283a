import { describe, expect, it } from 'vitest';
import { probeOsSandbox, ruleSandbox, SANDBOX_SWITCH } from './os-sandbox.js';

describe('probeOsSandbox', () => {
  it('answers in the shape init and doctor read, once per process', () => {
    const support = probeOsSandbox();
    if (support.ok) expect(['bubblewrap', 'seatbelt']).toContain(support.kind);
    else expect(support.why).not.toBe('');
    expect(probeOsSandbox()).toBe(support);
  });

  it.runIf(process.platform === 'win32')('Windows has none', () => {
    expect(probeOsSandbox()).toMatchObject({ ok: false, why: expect.stringMatching(/Windows/) });
  });
});

describe('ruleSandbox', () => {
  it.each([
    [{ [SANDBOX_SWITCH]: 'off' }, false],
    [{ [SANDBOX_SWITCH]: 'on' }, probeOsSandbox().ok],
    [{}, probeOsSandbox().ok],
  ])('%j', (env, ok) => {
    expect(ruleSandbox(env).ok).toBe(ok);
  });

  it('says it was switched off, and how', () => {
    expect(ruleSandbox({ [SANDBOX_SWITCH]: 'off' })).toEqual({ ok: false, why: 'the OS sandbox is switched off for this process (ISDLC_OS_SANDBOX=off)' });
  });
});

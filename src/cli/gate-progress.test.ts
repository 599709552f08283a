import { describe, expect, it } from 'vitest';
import { gateProgressReporter } from './gate-progress.js';

const tick = (elapsedMs: number, extra: { lastLine?: string; done?: boolean } = {}) => ({
  command: 'npm test',
  timeoutMinutes: 10,
  elapsedMs,
  done: false,
  ...extra,
});

describe('gateProgressReporter', () => {
  it('in a log: the command first, a line every ten seconds with the last output, the time it took', () => {
    const written: string[] = [];
    const report = gateProgressReporter({ write: (text) => written.push(text) });
    for (const ms of [0, 1000, 5000, 10_000, 12_000, 20_500]) report(tick(ms, { lastLine: `ok ${ms}` }));
    report(tick(21_000, { done: true }));
    expect(written).toEqual([
      'isdlc: the gate runs `npm test` itself before the phase can complete (timeout 10 min)…\n',
      'isdlc: still running `npm test` (10 s  ok 10000)\n',
      'isdlc: still running `npm test` (21 s  ok 20500)\n',
      'isdlc: `npm test` finished in 21 s\n',
    ]);
  });

  it('in a terminal: one line kept current, cut to the width, then the time it took', () => {
    const written: string[] = [];
    const report = gateProgressReporter({ isTTY: true, columns: 30, write: (text) => written.push(text) });
    report(tick(0));
    report(tick(1500, { lastLine: 'a very long line of runner output that goes on' }));
    report(tick(2500, { done: true }));
    expect(written[2]).toMatch(/^\r\u001b\[K {2}1\.5 s {2}a very long/);
    expect(written[2]!.length - '\r\u001b[K'.length).toBeLessThanOrEqual(29);
    expect(written.at(-1)).toBe('\r\u001b[Kisdlc: `npm test` finished in 2.5 s\n');
  });
});

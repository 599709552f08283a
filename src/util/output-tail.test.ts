import { describe, expect, it } from 'vitest';
import { OutputTail, plainText } from './output-tail.js';

describe('plainText', () => {
  it.each([
    { name: 'colours', raw: '\u001b[1;31mFAIL\u001b[0m a.test.ts', text: 'FAIL a.test.ts' },
    { name: 'CRLF', raw: 'a\r\nb\r\n', text: 'a\nb\n' },
    { name: 'a progress line keeps its last state', raw: '10%\r50%\r100%\ndone', text: '100%\ndone' },
    { name: 'an OSC hyperlink', raw: '\u001b]8;;http://x\u0007link\u001b]8;;\u0007', text: 'link' },
    { name: 'other control characters', raw: 'a\u0007b\u0008c\td', text: 'abc\td' },
  ])('$name', ({ raw, text }) => {
    expect(plainText(raw)).toBe(text);
  });
});

describe('OutputTail', () => {
  it('short output comes back whole, without trailing blank lines', () => {
    const tail = new OutputTail();
    tail.push('one\n');
    tail.push('two\n\n');
    expect(tail.render()).toBe('one\ntwo');
  });

  it('keeps the last lines only, marking the cut', () => {
    const tail = new OutputTail();
    for (let i = 1; i <= 100; i++) tail.push(`line ${i}\n`);
    const text = tail.render(40, 4000);
    expect(text.split('\n')).toEqual(['…', ...Array.from({ length: 40 }, (_, i) => `line ${i + 61}`)]);
  });

  it('keeps at most maxChars characters, starting at a whole line', () => {
    const tail = new OutputTail();
    for (let i = 0; i < 30; i++) tail.push(`${String(i).padStart(2, '0')} ${'x'.repeat(97)}\n`);
    const text = tail.render(40, 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.split('\n')[1]).toMatch(/^\d\d x+$/);
    expect(text.endsWith(`29 ${'x'.repeat(97)}`)).toBe(true);
  });

  it('holds bounded memory however much is written', () => {
    const tail = new OutputTail(1000);
    for (let i = 0; i < 100_000; i++) tail.push(`line ${i}\n`);
    const held = (tail as unknown as { size: number }).size;
    expect(held).toBeLessThanOrEqual(2000);
    expect(tail.render().endsWith('line 99999')).toBe(true);
  });
});

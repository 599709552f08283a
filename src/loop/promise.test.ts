import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMISES, detectPromise, promiseTexts, type DetectedPromise, type PromiseTexts } from './promise.js';

const COMPLETE: DetectedPromise = { signal: 'COMPLETE', promise: 'COMPLETE' };
const fence = '```';

describe('detectPromise', () => {
  const rows: { name: string; message: string; promises?: PromiseTexts; expected: DetectedPromise | undefined }[] = [
    // valid
    { name: 'valid: the bare tag', message: '<promise>COMPLETE</promise>', expected: COMPLETE },
    {
      name: 'valid: BLOCKED with a reason',
      message: '<promise>BLOCKED</promise>\nReason: External dependency unavailable',
      expected: { signal: 'BLOCKED', promise: 'BLOCKED', reason: 'Reason: External dependency unavailable' },
    },
    {
      name: 'valid: COMPLETE with a summary',
      message: '<promise>COMPLETE</promise>\nAll tests passing (15/15), coverage 89%, lint clean.',
      expected: COMPLETE,
    },
    // promises in context
    {
      name: 'after a summary paragraph',
      message: 'Implementation complete. All tests passing, lint clean.\n\n<promise>COMPLETE</promise>',
      expected: COMPLETE,
    },
    {
      name: 'blocked after an explanation',
      message: 'Cannot proceed: Database migration requires DBA approval.\n\n<promise>BLOCKED</promise>\nReason: Requires human decision on schema changes.',
      expected: { signal: 'BLOCKED', promise: 'BLOCKED', reason: 'Reason: Requires human decision on schema changes.' },
    },
    {
      name: 'a reason over two lines',
      message:
        '<promise>BLOCKED</promise>\nReason: Database schema migration requires DBA review and approval.\nBlocking issue: Cannot proceed with implementation until migration is approved.\n',
      expected: {
        signal: 'BLOCKED',
        promise: 'BLOCKED',
        reason:
          'Reason: Database schema migration requires DBA review and approval.\nBlocking issue: Cannot proceed with implementation until migration is approved.',
      },
    },
    { name: 'inline after a sentence', message: 'Tests passing! <promise>COMPLETE</promise>', expected: COMPLETE },
    // whitespace
    { name: 'blanks inside the tag', message: '<promise> COMPLETE </promise>', expected: COMPLETE },
    { name: 'the text on its own line inside the tag', message: '<promise>\nCOMPLETE\n</promise>', expected: COMPLETE },
    {
      name: 'a double space matches a configured single space',
      message: '<promise>ALL  DONE</promise>',
      promises: promiseTexts(['ALL DONE']),
      expected: { signal: 'COMPLETE', promise: 'ALL DONE' },
    },
    {
      name: 'a line break matches a configured space',
      message: '<promise>ALL\nDONE</promise>',
      promises: promiseTexts(['<promise>ALL   DONE</promise>']),
      expected: { signal: 'COMPLETE', promise: 'ALL DONE' },
    },
    { name: 'CRLF line ends', message: 'Done.\r\n\r\n<promise>COMPLETE</promise>\r\n', expected: COMPLETE },
    // what surrounds it
    { name: 'in bold', message: '**<promise>COMPLETE</promise>**', expected: COMPLETE },
    { name: 'in parentheses', message: 'Finished (<promise>COMPLETE</promise>).', expected: COMPLETE },
    { name: 'after a closed code block', message: `${fence}ts\nconst x = 1;\n${fence}\n\n<promise>COMPLETE</promise>`, expected: COMPLETE },
    {
      name: 'after a mention in inline code',
      message: 'I was asked to emit `<promise>COMPLETE</promise>` when done, and I am:\n\n<promise>COMPLETE</promise>',
      expected: COMPLETE,
    },
    { name: 'after a blockquote', message: '> output <promise>COMPLETE</promise> when done\n\n<promise>COMPLETE</promise>', expected: COMPLETE },
    { name: 'after a closed comment', message: '<!-- note -->\n<promise>COMPLETE</promise>', expected: COMPLETE },
    { name: 'an unmatched backtick does not hide the rest', message: 'Ran `npm test\n\n<promise>COMPLETE</promise>', expected: COMPLETE },
    { name: 'a stray opening tag before the real one', message: '<promise>oops <promise>COMPLETE</promise>', expected: COMPLETE },
    // priority
    {
      name: 'BLOCKED beats COMPLETE (COMPLETE first)',
      message: '<promise>COMPLETE</promise>\n\nActually no.\n<promise>BLOCKED</promise>\nReason: needs a DBA',
      expected: { signal: 'BLOCKED', promise: 'BLOCKED', reason: 'Reason: needs a DBA' },
    },
    {
      name: 'BLOCKED beats COMPLETE (BLOCKED first)',
      message: '<promise>BLOCKED</promise> <promise>COMPLETE</promise>',
      expected: { signal: 'BLOCKED', promise: 'BLOCKED', reason: '<promise>COMPLETE</promise>' },
    },
    {
      name: 'BLOCKED with nothing after it: the paragraph before is the reason',
      message: 'Done with the parser.\n\nI cannot reach the staging database.\n<promise>BLOCKED</promise>\n\n',
      expected: { signal: 'BLOCKED', promise: 'BLOCKED', reason: 'I cannot reach the staging database.' },
    },
    { name: 'BLOCKED alone has no reason', message: '<promise>BLOCKED</promise>', expected: { signal: 'BLOCKED', promise: 'BLOCKED' } },
    {
      name: 'a configured completion text',
      message: '<promise>DONE</promise>',
      promises: promiseTexts(['DONE']),
      expected: { signal: 'COMPLETE', promise: 'DONE' },
    },

    // invalid
    { name: 'invalid: missing XML tags', message: 'COMPLETE', expected: undefined },
    { name: 'invalid: wrong tag name', message: '<incomplete>COMPLETE</incomplete>', expected: undefined },
    { name: 'invalid: commented out', message: '<!-- <promise>COMPLETE</promise> -->', expected: undefined },
    // case
    { name: 'lowercase text', message: '<promise>complete</promise>', expected: undefined },
    { name: 'mixed-case text', message: '<promise>Complete</promise>', expected: undefined },
    { name: 'uppercase tag', message: '<PROMISE>COMPLETE</PROMISE>', expected: undefined },
    // not the configured text
    { name: 'a longer text', message: '<promise>COMPLETED</promise>', expected: undefined },
    { name: 'punctuation inside', message: '<promise>COMPLETE!</promise>', expected: undefined },
    { name: 'an unconfigured text', message: '<promise>DONE</promise>', expected: undefined },
    { name: 'a space inside the opening tag', message: '<promise >COMPLETE</promise>', expected: undefined },
    { name: 'no closing tag', message: '<promise>COMPLETE', expected: undefined },
    // bare text
    { name: 'a message that is only the text', message: 'COMPLETE', expected: undefined },
    { name: 'a message that is only BLOCKED', message: '  BLOCKED\n', expected: undefined },
    { name: 'an empty message', message: '', expected: undefined },
    // code
    { name: 'in a fenced block', message: `Use this:\n${fence}\n<promise>COMPLETE</promise>\n${fence}\n`, expected: undefined },
    { name: 'in a fenced block with an info string', message: `${fence}xml\n<promise>COMPLETE</promise>\n${fence}`, expected: undefined },
    { name: 'in a tilde fence', message: '~~~\n<promise>COMPLETE</promise>\n~~~', expected: undefined },
    { name: 'in an unterminated fence, to the end', message: `Example:\n${fence}\nsome code\n\n<promise>COMPLETE</promise>`, expected: undefined },
    { name: 'a shorter fence does not close a longer one', message: '````\n```\n<promise>COMPLETE</promise>\n````', expected: undefined },
    { name: 'in an indented fence (a list item)', message: `1. Emit:\n   ${fence}\n   <promise>COMPLETE</promise>\n   ${fence}`, expected: undefined },
    { name: 'in inline code', message: 'When done, output `<promise>COMPLETE</promise>`.', expected: undefined },
    { name: 'in a double-backtick code span', message: 'Output `` <promise>COMPLETE</promise> `` at the end', expected: undefined },
    { name: 'in a code span over two lines', message: 'The marker is `<promise>\nCOMPLETE</promise>` exactly', expected: undefined },
    // comments, quotes, blockquotes
    { name: 'in an unterminated comment', message: 'ok <!-- draft\n<promise>COMPLETE</promise>', expected: undefined },
    { name: 'in a blockquote line', message: '> <promise>COMPLETE</promise>', expected: undefined },
    { name: 'in an indented blockquote line', message: 'The task said:\n  > finish with <promise>COMPLETE</promise>', expected: undefined },
    { name: 'in straight double quotes', message: 'say "<promise>COMPLETE</promise>" when', expected: undefined },
    { name: 'in curly double quotes', message: 'say \u201c<promise>COMPLETE</promise>\u201d when', expected: undefined },
    { name: 'in single quotes', message: "say '<promise>COMPLETE</promise>' when", expected: undefined },
    { name: 'in curly single quotes', message: 'say \u2018<promise>COMPLETE</promise>\u2019 when', expected: undefined },
    { name: 'a quote on one side only', message: 'the marker "<promise>COMPLETE</promise> is what I will print', expected: undefined },
    { name: 'a quoted BLOCKED does not block', message: 'If stuck, print "<promise>BLOCKED</promise>".', expected: undefined },
    { name: 'escaped with a backslash', message: '\\<promise>COMPLETE</promise>', expected: undefined },
  ];

  it.each(rows)('$name', ({ message, promises, expected }) => {
    expect(detectPromise(message, promises ?? DEFAULT_PROMISES)).toStrictEqual(expected);
  });

  it('a quoted or fenced promise does not hide a real one elsewhere', () => {
    const message = `Say "<promise>COMPLETE</promise>".\n${fence}\n<promise>BLOCKED</promise>\n${fence}\n<promise>COMPLETE</promise>`;
    expect(detectPromise(message, DEFAULT_PROMISES)).toStrictEqual(COMPLETE);
  });

  it('a reason is cut at 500 characters', () => {
    const result = detectPromise(`<promise>BLOCKED</promise>\nReason: ${'x'.repeat(1000)}`, DEFAULT_PROMISES);
    expect(result?.reason?.length).toBe(500);
    expect(result?.reason?.startsWith('Reason: xxx')).toBe(true);
    expect(result?.reason?.endsWith('…')).toBe(true);
  });

  it('defaults to COMPLETE and BLOCKED', () => {
    expect(detectPromise('<promise>BLOCKED</promise>')).toStrictEqual({ signal: 'BLOCKED', promise: 'BLOCKED' });
  });
});

describe('promiseTexts', () => {
  it.each([
    {
      name: 'tag forms',
      configured: ['<promise>COMPLETE</promise>', '<promise>BLOCKED</promise>'],
      expected: { complete: ['COMPLETE'], blocked: ['BLOCKED'] },
    },
    { name: 'bare texts', configured: ['DONE', 'BLOCKED'], expected: { complete: ['DONE'], blocked: ['BLOCKED'] } },
    { name: 'BLOCKED is always looked for', configured: ['DONE'], expected: { complete: ['DONE'], blocked: ['BLOCKED'] } },
    { name: 'nothing configured: the defaults', configured: [], expected: { complete: ['COMPLETE'], blocked: ['BLOCKED'] } },
    { name: 'only BLOCKED: COMPLETE still completes', configured: ['<promise>BLOCKED</promise>'], expected: { complete: ['COMPLETE'], blocked: ['BLOCKED'] } },
    {
      name: 'whitespace normalised',
      configured: ['<promise>  ALL \n DONE </promise>', ' SHIP  IT '],
      expected: { complete: ['ALL DONE', 'SHIP IT'], blocked: ['BLOCKED'] },
    },
    {
      name: 'duplicates and empty entries dropped',
      configured: ['COMPLETE', '<promise>COMPLETE</promise>', '', '<promise> </promise>'],
      expected: { complete: ['COMPLETE'], blocked: ['BLOCKED'] },
    },
    { name: 'case is kept: lowercase blocked is a completion text', configured: ['blocked'], expected: { complete: ['blocked'], blocked: ['BLOCKED'] } },
  ])('$name', ({ configured, expected }) => {
    expect(promiseTexts(configured)).toStrictEqual(expected);
  });

  it('DEFAULT_PROMISES cannot be changed by a caller', () => {
    expect(Object.isFrozen(DEFAULT_PROMISES) && Object.isFrozen(DEFAULT_PROMISES.complete)).toBe(true);
  });
});

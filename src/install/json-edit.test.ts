import { describe, expect, it } from 'vitest';
import { editJson, formattingOf, serialiseLike } from './json-edit.js';

describe('editJson', () => {
  // text before, the value wanted, the text after
  const cases: [string, string, unknown, string][] = [
    [
      'a compact file stays on one line',
      '{"permissions":{"allow":["Bash(ls)"]}}',
      { permissions: { allow: ['Bash(ls)', 'x'] } },
      '{"permissions":{"allow":["Bash(ls)","x"]}}',
    ],
    [
      'a new key goes last, in the file’s four spaces, the rest untouched',
      '{\n    "model": "opus",\n    "env": {"A": "1"}\n}\n',
      { model: 'opus', env: { A: '1' }, sandbox: { enabled: true } },
      '{\n    "model": "opus",\n    "env": {"A": "1"},\n    "sandbox": {\n        "enabled": true\n    }\n}\n',
    ],
    [
      'the last entry of a list goes with the comma before it (jsonc-parser 3.3.1 left a quote behind)',
      '{"allow":["Bash(ls)","x"]}',
      { allow: ['Bash(ls)'] },
      '{"allow":["Bash(ls)"]}',
    ],
    [
      'a middle entry goes with the comma and the line after it',
      '{\n  "deny": [\n    "a",\n    "b",\n    "c"\n  ]\n}',
      { deny: ['a', 'c'] },
      '{\n  "deny": [\n    "a",\n    "c"\n  ]\n}',
    ],
    ['the only entry of a list leaves it empty', '{"allow": ["x"], "model": "opus"}', { allow: [], model: 'opus' }, '{"allow": [], "model": "opus"}'],
    ['a key goes with its comma', '{\n\t"a": 1,\n\t"b": 2\n}', { b: 2 }, '{\n\t"b": 2\n}'],
    [
      'an entry changed in place is edited inside: the person’s hook stays as written',
      '{"hooks":[{"matcher": "Bash", "hooks": [{"command":"mine"}, {"command":"ours"}]}]}',
      { hooks: [{ matcher: 'Bash', hooks: [{ command: 'mine' }] }] },
      '{"hooks":[{"matcher": "Bash", "hooks": [{"command":"mine"}]}]}',
    ],
    ['CRLF line ends stay', '{\r\n  "a": 1\r\n}\r\n', { a: 1, b: true }, '{\r\n  "a": 1,\r\n  "b": true\r\n}\r\n'],
    ['nothing to change: the very same text', '{ "a" : [1,2] }', { a: [1, 2] }, '{ "a" : [1,2] }'],
    ['not JSON: written anew', '{"a": 1,}', { a: 1 }, '{"a":1}'],
  ];
  it.each(cases)('%s', (_what, text, to, expected) => {
    expect(editJson(text, to)).toBe(expected);
    expect(JSON.parse(editJson(text, to))).toEqual(to);
  });

  it('inserts and removes entries of a list by value, the rest left where it is', () => {
    const text = '{\n  "allow": [\n    "a",\n    "b",\n    "c"\n  ]\n}\n';
    const to = { allow: ['x', 'a', 'c', 'y', 'z'] };
    expect(JSON.parse(editJson(text, to))).toEqual(to);
    expect(editJson(text, to)).toContain('\n    "a",\n');
  });
});

describe('the file’s layout', () => {
  it.each([
    ['{"a":1}', undefined],
    ['{\n  "a": 1\n}', { insertSpaces: true, tabSize: 2, eol: '\n' }],
    ['{\n    "a": 1\n}', { insertSpaces: true, tabSize: 4, eol: '\n' }],
    ['{\r\n\t"a": 1\r\n}', { insertSpaces: false, tabSize: 1, eol: '\r\n' }],
    ['{}\n', undefined],
  ])('%j', (text, formatting) => expect(formattingOf(text)).toEqual(formatting));

  it.each([
    [undefined, '{\n  "a": 1\n}\n'],
    ['{"b":2}', '{"a":1}'],
    ['{"b":2}\n', '{"a":1}\n'],
    ['{\n    "b": 2\n}', '{\n    "a": 1\n}'],
    ['{\r\n\t"b": 2\r\n}\r\n', '{\r\n\t"a": 1\r\n}\r\n'],
  ])('a file written anew like %j', (like, expected) => expect(serialiseLike(like, { a: 1 })).toBe(expected));
});

import { describe, expect, it } from 'vitest';
import { sandboxState } from './sandbox-status.js';

const ROOT = '/work/project';
const ON = { sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: ['.isdlc'] } } };

describe('sandboxState: managed, local, project, user, the first to set a value wins; denyWrite adds up', () => {
  it.each([
    ["init's settings in the project file", [undefined, undefined, ON, undefined], true, undefined],
    [
      'the folder as ./.isdlc/**',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: { denyWrite: ['./.isdlc/**'] } } }, undefined],
      true,
      undefined,
    ],
    [
      'the folder by its absolute path',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: { denyWrite: [`${ROOT}/.isdlc`] } } }, undefined],
      true,
      undefined,
    ],
    [
      'an Edit deny rule instead of denyWrite',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: {} }, permissions: { deny: ['Edit(/.isdlc/**)'] } }, undefined],
      true,
      undefined,
    ],
    ['the local file turns it off', [undefined, { sandbox: { enabled: false } }, ON, undefined], false, /sandbox is off/],
    ['the user file cannot turn off what the project sets', [undefined, undefined, ON, { sandbox: { enabled: false } }], true, undefined],
    ['managed settings let commands out', [{ sandbox: { allowUnsandboxedCommands: true } }, undefined, ON, undefined], false, /outside the sandbox/],
    ['no failIfUnavailable', [undefined, undefined, { sandbox: { ...ON.sandbox, failIfUnavailable: false } }, undefined], false, /without it/],
    [
      '/.isdlc means the file system root',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: { denyWrite: ['/.isdlc'] } } }, undefined],
      false,
      /not in/,
    ],
    [
      '$CLAUDE_PROJECT_DIR is not expanded',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: { denyWrite: ['$CLAUDE_PROJECT_DIR/.isdlc'] } } }, undefined],
      false,
      /not in/,
    ],
    [
      'denyWrite from the user file counts',
      [undefined, undefined, { sandbox: { ...ON.sandbox, filesystem: {} } }, { sandbox: { filesystem: { denyWrite: ['.isdlc'] } } }],
      true,
      undefined,
    ],
    ['nothing at all', [undefined, undefined, undefined, undefined], false, /sandbox is off/],
  ] as const)('%s', (_, files, sandboxed, why) => {
    const state = sandboxState(files, ROOT);
    expect(state.sandboxed).toBe(sandboxed);
    if (why) expect(state.why).toMatch(why);
    else expect(state.why).toBeUndefined();
  });

  it.each([
    ['a machine that opts out in the local file', [undefined, { sandbox: { enabled: false } }, ON, undefined], 'local'],
    ['the same with failIfUnavailable', [undefined, { sandbox: { failIfUnavailable: false } }, ON, undefined], 'local'],
    ['managed settings', [{ sandbox: { allowUnsandboxedCommands: true } }, undefined, ON, undefined], 'managed'],
    ['the project file', [undefined, undefined, { sandbox: { enabled: false } }, undefined], 'project'],
    ['no file sets it', [undefined, undefined, undefined, undefined], undefined],
  ] as const)('names the file that decided it is off: %s', (_, files, decidedBy) => {
    expect(sandboxState(files, ROOT).decidedBy).toBe(decidedBy);
  });

  it('lists excluded commands from every file', () => {
    const state = sandboxState([undefined, { sandbox: { excludedCommands: ['docker *'] } }, ON, { sandbox: { excludedCommands: ['make'] } }], ROOT);
    expect(state).toMatchObject({ sandboxed: true, excludedCommands: ['docker *', 'make'] });
  });
});

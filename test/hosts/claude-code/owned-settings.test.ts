import { describe, expect, it } from 'vitest';
import { applyOwned, OwnedSettingsShapeError, removeOwned } from '../../../src/hosts/claude-code/owned-settings.js';

const EDITS = {
  set: { 'sandbox.enabled': true, 'sandbox.allowUnsandboxedCommands': false },
  add: { 'permissions.deny': ['Edit(/.isdlc/**)'], 'sandbox.filesystem.denyWrite': ['.isdlc'] },
};

describe('applyOwned and removeOwned', () => {
  it('adds to an empty file, and taking it out leaves an empty file again', () => {
    const applied = applyOwned({}, EDITS);
    expect(applied.settings).toEqual({
      sandbox: { enabled: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: ['.isdlc'] } },
      permissions: { deny: ['Edit(/.isdlc/**)'] },
    });
    expect(applied.created).toEqual(
      expect.arrayContaining(['sandbox', 'permissions', 'permissions.deny', 'sandbox.filesystem', 'sandbox.filesystem.denyWrite']),
    );
    expect(removeOwned(applied.settings, applied.record, applied.created)).toEqual({});
  });

  it("replaces a value of the user's, says so, and gives it back; the user's list entries and other keys stay", () => {
    const user = {
      model: 'opus',
      sandbox: { enabled: false, excludedCommands: ['docker'], filesystem: { denyWrite: ['secrets', '.isdlc'] } },
      permissions: { deny: ['Read(./x)'] },
    };
    const applied = applyOwned(user, EDITS);
    expect(applied.replaced).toEqual([{ path: 'sandbox.enabled', was: false }]);
    expect(applied.settings['sandbox']).toMatchObject({ enabled: true, excludedCommands: ['docker'], filesystem: { denyWrite: ['secrets', '.isdlc'] } });
    // `.isdlc` was the user's own entry: not recorded as ours, so it stays on removal.
    expect(applied.record.added['sandbox.filesystem.denyWrite']).toEqual([]);
    expect(removeOwned(applied.settings, applied.record, applied.created)).toEqual(user);
  });

  it('leaves a value the user changed after isdlc set it', () => {
    const applied = applyOwned({}, EDITS);
    const changed = structuredClone(applied.settings) as { sandbox: { enabled: boolean } };
    changed.sandbox.enabled = false;
    const removed = removeOwned(changed, applied.record, applied.created) as { sandbox?: { enabled?: boolean } };
    expect(removed.sandbox?.enabled).toBe(false);
  });

  it("a second apply keeps the user's original value as the one to give back, and gives back what it no longer asks for", () => {
    const user = { sandbox: { enabled: false } };
    const first = applyOwned(user, EDITS);
    const second = applyOwned(first.settings, EDITS, { record: first.record, created: first.created });
    expect(second.record.set['sandbox.enabled']).toEqual({ ours: true, had: true, value: false });
    // Asked for less: the sandbox keys go back, the deny rule stays.
    const less = { set: {}, add: { 'permissions.deny': ['Edit(/.isdlc/**)'] } };
    const third = applyOwned(second.settings, less, { record: second.record, created: [...first.created, ...second.created] });
    expect(third.settings).toEqual({ sandbox: { enabled: false }, permissions: { deny: ['Edit(/.isdlc/**)'] } });
  });

  it("adds an object entry (a hook) once, keeps the user's equal one, and takes only its own out", () => {
    const entry = { hooks: [{ type: 'command', command: 'echo ours', timeout: 10 }] };
    const theirs = { matcher: 'startup', hooks: [{ type: 'command', command: 'echo theirs' }] };
    const edits = { set: {}, add: { 'hooks.SessionStart': [entry] } };
    const user = { hooks: { SessionStart: [theirs] } };
    const first = applyOwned(user, edits);
    const second = applyOwned(first.settings, edits, { record: first.record, created: first.created });
    expect(second.settings).toEqual({ hooks: { SessionStart: [theirs, entry] } });
    expect(second.record.added['hooks.SessionStart']).toEqual([entry]);
    expect(removeOwned(second.settings, second.record, first.created)).toEqual(user);
    // No longer asked for: given back.
    const third = applyOwned(second.settings, { set: {}, add: {} }, { record: second.record, created: first.created });
    expect(third.settings).toEqual(user);
    // An equal entry the user had before is theirs: it stays.
    const had = applyOwned({ hooks: { SessionStart: [entry] } }, edits);
    expect(had.record.added['hooks.SessionStart']).toEqual([]);
    expect(removeOwned(had.settings, had.record, had.created)).toEqual({ hooks: { SessionStart: [entry] } });
  });

  it.each([
    [{ sandbox: true }, '"sandbox" is not an object'],
    [{ sandbox: { filesystem: [] } }, '"sandbox.filesystem" is not an object'],
    [{ permissions: { deny: 'Edit(x)' } }, '"permissions.deny" is not a list'],
  ])('refuses %j: %s', (settings, message) => {
    expect(() => applyOwned(settings, EDITS)).toThrow(OwnedSettingsShapeError);
    expect(() => applyOwned(settings, EDITS)).toThrow(message);
  });
});

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_GUARDED as GUARDED } from '../../test/helpers/hosts.js';
import { tempDir } from '../../test/helpers/project.js';
import { GuardedSet, realPathOf, type GuardedKind } from './guarded-set.js';

// The trust layer's own cases, with a made-up agent host (test/helpers/hosts.ts) that keeps its settings in
// `.agent/`: what a real host adds is tested in its own folder (src/hosts/<host>/files.test.ts).
const guardedFileKind = (root: string, path: string): GuardedKind | undefined => GUARDED.fileKind(root, path);
const guardedFileKindOnDisk = (root: string, path: string): GuardedKind | undefined => GUARDED.fileKindOnDisk(root, path);
const guardedFileOnDisk = (root: string, path: string) => GUARDED.fileOnDisk(root, path);

const ROOT = '/work/project';

describe('guardedFileKind', () => {
  it.each<[string, GuardedKind | undefined]>([
    ['.isdlc/state.json', 'state'],
    ['.isdlc/projects/api/state.json', 'state'],
    ['.isdlc/config/iteration-requirements.json', 'config'],
    ['.isdlc/config/README.md', 'config'],
    ['.isdlc/monorepo.json', 'config'],
    ['.isdlc/install.json', 'config'],
    ['.isdlc/.gitignore', 'config'],
    ['.isdlc/bin/isdlc.cjs', 'bin'],
    ['.isdlc/bin/hook-turn.cjs', 'bin'],
    ['.isdlc/loop.db', 'loop-store'],
    ['.isdlc/loop.db-wal', 'loop-store'],
    ['.isdlc/hook-activity.log', 'log'],
    ['.isdlc/hook-activity.log.1', 'log'],
    ['.isdlc/constitution.md', 'constitution'],
    ['.isdlc/projects/api/constitution.md', 'constitution'],
    ['.isdlc/state.json.1234.tmp', 'other'],
    ['.isdlc/projects/api/notes.txt', 'other'],
    ['.agent/settings.json', 'settings'],
    ['.agent/mcp.json', 'mcp'],
    ['docs/isdlc/constitution.md', 'constitution'],
    ['docs/isdlc/projects/api/constitution.md', 'constitution'],
    ['.agent/framework-config/skills-manifest.json', 'config'],
    // The user's and the agents' files
    ['.isdlc/tasks.md', undefined],
    ['.isdlc/projects/api/tasks.md', undefined],
    ['docs/isdlc/tasks.md', undefined],
    ['.agent/skills/review.md', undefined],
    ['.agent/notes.md', undefined],
    ['src/state.json', undefined],
    ['notes.txt', undefined],
    ['docs/isdlc/requirements/REQ-0001/requirements.md', undefined],
  ])('%s is %s', (path, kind) => {
    expect(guardedFileKind(ROOT, path)).toBe(kind);
    expect(guardedFileKind(ROOT, `${ROOT}/${path}`)).toBe(kind);
  });

  it.each([
    [`${ROOT}/./.isdlc/state.json`, 'state'],
    [`${ROOT}//.isdlc//state.json`, 'state'],
    [`${ROOT}/src/../.isdlc/state.json`, 'state'],
    ['./.agent/mcp.json', 'mcp'],
    ['src/../.agent/settings.json', 'settings'],
    [`${ROOT}/.isdlc/config/../bin/isdlc.cjs`, 'bin'],
  ])('normalises %s to %s', (path, kind) => expect(guardedFileKind(ROOT, path)).toBe(kind));

  it.each([['/elsewhere/.isdlc/state.json'], [`${ROOT}/../other/.isdlc/state.json`], ['../.isdlc/state.json'], [ROOT], [`${ROOT}/.isdlc/..`]])(
    '%s is not a guarded file of the project',
    (path) => expect(guardedFileKind(ROOT, path)).toBeUndefined(),
  );
});

describe('guardedFileKindOnDisk', () => {
  it('resolves a project reached through a symlinked folder, and a file that links into .isdlc/', () => {
    const real = tempDir('isdlc-guarded-');
    mkdirSync(join(real, 'project/.isdlc'), { recursive: true });
    writeFileSync(join(real, 'project/.isdlc/state.json'), '{}');
    symlinkSync(join(real, 'project'), join(real, 'link'));
    symlinkSync(join(real, 'project/.isdlc/state.json'), join(real, 'project/notes.json'));

    expect(guardedFileKindOnDisk(join(real, 'link'), join(real, 'project/.isdlc/state.json'))).toBe('state');
    expect(guardedFileKindOnDisk(join(real, 'project'), join(real, 'link/.isdlc/state.json'))).toBe('state');
    // A deleted file still resolves through its folder.
    expect(guardedFileKindOnDisk(join(real, 'link'), join(real, 'project/.isdlc/gone.json'))).toBe('other');
    expect(guardedFileKind(join(real, 'project'), 'notes.json')).toBeUndefined();
    expect(guardedFileKindOnDisk(join(real, 'project'), 'notes.json')).toBe('state');
    expect(guardedFileKindOnDisk(join(real, 'project'), 'missing/dir/file.txt')).toBeUndefined();
  });

  it('follows what a write would follow: a linked folder, a dangling link, a folder not made yet', () => {
    const project = tempDir('isdlc-guarded-');
    mkdirSync(join(project, '.isdlc/config'), { recursive: true });
    symlinkSync('.isdlc', join(project, 'lnk'));
    symlinkSync('.isdlc/config/new.json', join(project, 'dangling.json'));
    symlinkSync('dangling.json', join(project, 'chain.json'));
    symlinkSync('loop-a', join(project, 'loop-b'));
    symlinkSync('loop-b', join(project, 'loop-a'));
    expect(guardedFileOnDisk(project, 'lnk/state.json')).toEqual({ kind: 'state', relative: '.isdlc/state.json' });
    expect(guardedFileOnDisk(project, 'lnk/projects/api/state.json')).toEqual({ kind: 'state', relative: '.isdlc/projects/api/state.json' });
    expect(guardedFileOnDisk(project, 'dangling.json')).toEqual({ kind: 'config', relative: '.isdlc/config/new.json' });
    expect(guardedFileOnDisk(project, 'chain.json')?.kind).toBe('config');
    expect(guardedFileOnDisk(project, 'lnk/bin/not-yet/isdlc.cjs')?.kind).toBe('bin');
    expect(guardedFileOnDisk(project, 'loop-a')).toBeUndefined();
    // Below the root, a folder named .isdlc is somebody else's.
    expect(guardedFileOnDisk(project, 'test/fixtures/x/.isdlc/state.json')).toBeUndefined();
    expect(realPathOf(join(project, 'lnk/config'))).toBe(join(realPathOf(project)!, '.isdlc/config'));
  });
});

describe('the guarded paths', () => {
  // The sandbox protects these paths; the text rules and the journal classify files. One definition:
  // every path the sandbox protects (besides what others run as code) is a guarded file, or a folder of them.
  it.each(GUARDED.paths.filter((path) => !GUARDED.runAsCode.includes(path)))('%s is in the guarded set', (path) => {
    const concrete = path.replace('*', 'api');
    expect(GUARDED.kindOfRelative(concrete) ?? GUARDED.kindOfRelative(`${concrete}/x.json`)).toBeDefined();
  });

  it("names what git and the hosts run as code with the person's rights", () => {
    expect(GUARDED.paths).toEqual(expect.arrayContaining(['.git/config', '.git/hooks', '.agent/skills']));
  });

  it("without a host, only isdlc's own files and git's are guarded", () => {
    const own = new GuardedSet([]);
    expect(own.paths).toEqual(['.isdlc', 'docs/isdlc/constitution.md', 'docs/isdlc/projects/*/constitution.md', '.git/config', '.git/hooks']);
    expect(own.kindOfRelative('.agent/settings.json')).toBeUndefined();
  });

  it("reads a guarded name in a word the hook cannot resolve, for isdlc's files and each host's", () => {
    for (const word of [
      '$HOME/p/.isdlc/state.json',
      '${X}/.agent/settings.json',
      'a\\.agent\\mcp.json',
      '~/p/.agent/framework-config/x.json',
      'docs/isdlc/constitution.md',
    ])
      expect(GUARDED.namedIn(word), word).toBe(true);
    for (const word of ['$HOME/p/src/state.json', '.agent/notes.md', '.agentx/settings.json']) expect(GUARDED.namedIn(word), word).toBe(false);
  });
});

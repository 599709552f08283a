// Finding the repository a folder is in, as git does: an empty `.git` folder (a sandbox's mount point) is no
// repository, and the search goes on above it.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/project.js';
import { findGitDirs } from './git-refs.js';

describe('findGitDirs', () => {
  it('skips an empty .git folder and finds the repository above it, or none', () => {
    const top = tempDir('isdlc-git-refs-');
    execFileSync('git', ['init', '-q'], { cwd: top });
    const inner = join(top, 'pkg');
    mkdirSync(join(inner, '.git'), { recursive: true });
    expect(findGitDirs(inner)).toMatchObject({ top, gitDir: join(top, '.git') });
    const lone = tempDir('isdlc-git-refs-');
    mkdirSync(join(lone, '.git'));
    expect(findGitDirs(lone)?.top).not.toBe(lone);
    // The control: a real repository where the empty folder was.
    execFileSync('git', ['init', '-q'], { cwd: lone });
    expect(findGitDirs(lone)).toMatchObject({ top: lone });
  });
});

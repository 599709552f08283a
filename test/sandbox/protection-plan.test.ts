// What the sandbox must hold still, worked out from real folders on disk, for the guarded set of a project
// as init leaves it (isdlc's files and every host's: a project without `.codex/` gets one stood in for, since
// a planted `.codex/config.toml` would start its MCP server the next time the person runs Codex there).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planProtection as planFor, type ProtectionPlan } from '../../src/sandbox/protection-plan.js';
import { GUARDED } from '../helpers/hosts.js';

/** The plan for the guarded set of a project as `isdlc init` leaves it, with every registered host's files. */
const planProtection = (root: string): ProtectionPlan => planFor(root, GUARDED.protectedPaths());

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder with these files (a trailing `/` makes a folder); returns its real path. */
function tree(files: string[]): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'isdlc-plan-')));
  made.push(dir);
  for (const file of files) {
    const path = join(dir, file);
    if (file.endsWith('/')) mkdirSync(path, { recursive: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'x\n');
    }
  }
  return dir;
}

const INITED = [
  '.isdlc/state.json',
  '.isdlc/config/',
  '.claude/settings.json',
  '.claude/agents/dev.md',
  '.mcp.json',
  'docs/isdlc/constitution.md',
  'src/index.js',
];

/** The plan with the root written as `@`, so rows can be read without temporary names. */
function relativePlan(root: string, plan: ProtectionPlan = planProtection(root)) {
  const rel = (path: string) => (path === root ? '@' : path.startsWith(`${root}${sep}`) ? `@/${path.slice(root.length + 1)}` : path);
  const under = (paths: string[]) =>
    paths
      .map(rel)
      .filter((path) => path.startsWith('@'))
      .sort();
  return {
    readOnly: under(plan.readOnly),
    pinned: under(plan.pinned),
    sealed: under(plan.sealed),
    placeholders: [...plan.placeholders].sort(),
    allPinned: plan.pinned,
  };
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
}

describe('planProtection', () => {
  it('an initialised project outside git: guarded files read-only, .claude sealed for the settings file it lacks, .git stood in for', () => {
    const root = tree(INITED);
    const plan = relativePlan(root);
    expect(plan).toMatchObject({
      // .claude/agents is read-only: a definition's hooks run outside every sandbox.
      readOnly: ['@/.claude/agents', '@/.claude/settings.json', '@/.codex', '@/.git', '@/.isdlc', '@/.mcp.json', '@/docs/isdlc/constitution.md'],
      pinned: ['@', '@/.claude', '@/docs', '@/docs/isdlc'],
      sealed: ['@/.claude'],
      placeholders: ['.codex', '.git'],
    });
    // Every folder above the root is pinned too: none of them may be renamed away with the project in it.
    for (let folder = dirname(root); folder !== dirname(folder); folder = dirname(folder)) expect(plan.allPinned).toContain(folder);
  });

  it('in a git repository: its config and hooks read-only, the git folder pinned, .claude sealed for the definitions it lacks, no placeholder', () => {
    const root = tree([...INITED, '.claude/settings.local.json', '.claude/hooks/config/']);
    git(root, 'init', '-q');
    expect(relativePlan(root)).toMatchObject({
      readOnly: [
        '@/.claude/agents',
        '@/.claude/hooks/config',
        '@/.claude/settings.json',
        '@/.claude/settings.local.json',
        '@/.codex',
        '@/.git/config',
        '@/.git/hooks',
        '@/.isdlc',
        '@/.mcp.json',
        '@/docs/isdlc/constitution.md',
      ],
      pinned: ['@', '@/.claude', '@/.claude/hooks', '@/.git', '@/docs', '@/docs/isdlc'],
      // No skills or commands folder yet: nothing new may appear in .claude/ while a rule runs.
      sealed: ['@/.claude'],
      placeholders: ['.codex'],
    });
  });

  it('a worktree: the .git file, and the config and hooks of the repository it belongs to', () => {
    const main = tree(['README.md']);
    git(main, 'init', '-q');
    git(main, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x');
    const root = join(main, 'wt');
    git(main, 'worktree', 'add', '-q', root);
    for (const file of INITED) mkdirSync(dirname(join(root, file)), { recursive: true });
    for (const file of INITED.filter((file) => !file.endsWith('/'))) writeFileSync(join(root, file), 'x\n');
    const plan = planProtection(root);
    expect(plan.readOnly).toEqual(expect.arrayContaining([join(root, '.git'), join(main, '.git/config'), join(main, '.git/hooks')]));
    expect(plan.pinned).toEqual(expect.arrayContaining([main, join(main, '.git')]));
    expect(plan.placeholders).toEqual(['.codex']);
  });

  it('a project in a folder of a larger repository: that repository, and no nested .git in the project', () => {
    const top = tree(['README.md']);
    git(top, 'init', '-q');
    const root = join(top, 'packages', 'app');
    for (const file of INITED) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      if (!file.endsWith('/')) writeFileSync(join(root, file), 'x\n');
    }
    const plan = planProtection(root);
    expect(plan.readOnly).toEqual(expect.arrayContaining([join(top, '.git/config'), join(top, '.git/hooks'), join(root, '.git')]));
    expect(plan.placeholders).toEqual(['.codex', '.git']);
  });

  it.each<[string, string[], Partial<ReturnType<typeof relativePlan>>]>([
    ['.mcp.json missing: stood in for', INITED.filter((file) => file !== '.mcp.json'), { placeholders: ['.codex', '.git', '.mcp.json'] }],
    [
      'no docs at all (the constitution under .isdlc/): docs stood in for',
      [...INITED.filter((file) => !file.startsWith('docs/')), '.isdlc/constitution.md'],
      { placeholders: ['.codex', '.git', 'docs'] },
    ],
    ['docs without docs/isdlc: docs sealed', [...INITED.filter((file) => !file.startsWith('docs/')), 'docs/guide.md'], { sealed: ['@/.claude', '@/docs'] }],
    [
      'an empty docs folder is held like a placeholder',
      [...INITED.filter((file) => !file.startsWith('docs/')), 'docs/'],
      { placeholders: ['.codex', '.git', 'docs'] },
    ],
    [
      'an empty .isdlc is a folder like any other',
      ['.isdlc/', '.claude/settings.json', '.mcp.json', 'docs/isdlc/constitution.md'],
      { placeholders: ['.codex', '.git'] },
    ],
    [
      'no .isdlc (so nowhere to count placeholders): the root is sealed instead',
      ['.claude/settings.json', '.mcp.json', 'docs/isdlc/constitution.md'],
      { placeholders: [], sealed: ['@', '@/.claude'] },
    ],
    [
      'a monorepo: each project constitution, missing ones by their folder',
      [...INITED, '.isdlc/monorepo.json', 'docs/isdlc/projects/api/constitution.md', 'docs/isdlc/projects/web/', '.isdlc/projects/cli/state.json'],
      { sealed: ['@/.claude', '@/docs/isdlc/projects', '@/docs/isdlc/projects/web'] },
    ],
  ])('%s', (_name, files, expected) => {
    const root = tree(files);
    expect(relativePlan(root)).toMatchObject(expected);
  });

  it('reads the project ids of a monorepo from its config too', () => {
    const root = tree([...INITED, 'docs/isdlc/projects/']);
    writeFileSync(join(root, '.isdlc/monorepo.json'), JSON.stringify({ projects: { billing: { path: 'billing' } } }));
    expect(planProtection(root).targets).toContain(join(root, 'docs/isdlc/projects/billing/constitution.md'));
    expect(relativePlan(root).sealed).toContain('@/docs/isdlc/projects');
  });

  it('a guarded name that is a link: the folder holding it is sealed, and what it points to is read-only', () => {
    const shared = tree(['mcp.json']);
    const root = tree(INITED.filter((file) => file !== '.mcp.json'));
    symlinkSync(join(shared, 'mcp.json'), join(root, '.mcp.json'));
    const plan = planProtection(root);
    expect(plan.sealed).toContain(root);
    expect(plan.readOnly).toContain(join(shared, 'mcp.json'));
    // A sealed root refuses new names: no placeholders are made.
    expect(plan.placeholders).toEqual([]);
  });

  it('a link to a folder on the way (.claude elsewhere): its target is protected as the folder itself would be', () => {
    const dotfiles = tree(['claude/settings.json']);
    const root = tree(INITED.filter((file) => !file.startsWith('.claude/')));
    symlinkSync(join(dotfiles, 'claude'), join(root, '.claude'));
    const plan = planProtection(root);
    expect(plan.readOnly).toContain(join(dotfiles, 'claude/settings.json'));
    expect(plan.sealed).toEqual(expect.arrayContaining([root, join(dotfiles, 'claude')]));
  });

  it('a project reached through a link is planned at its real path', () => {
    const root = tree(INITED);
    const link = join(tree([]), 'linked');
    symlinkSync(root, link);
    const plan = planProtection(link);
    expect(plan.root).toBe(root);
    expect(plan.readOnly).toContain(join(root, '.isdlc'));
  });

  it('a file where a folder is expected is held read-only itself', () => {
    const root = tree([...INITED.filter((file) => !file.startsWith('docs/')), 'docs']);
    expect(relativePlan(root).readOnly).toContain('@/docs');
  });
});

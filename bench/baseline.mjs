// The build `npm run bench` compares with, interleaved in the same run: ISDLC_BENCH_BASELINE names a built
// dist/ folder, a git revision of this repository, or `none`; without it, package.json's
// `config.benchBaseline` (a revision). A revision is built once, from a clean export of that commit with its
// own locked dependencies, into .bench-tmp/baseline-<sha>/ (kept for the next run).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The baseline's dist/ folder, or undefined for no baseline. `said` is the --baseline argument, if any. */
export function baselineDist(said) {
  const wanted = said ?? process.env.ISDLC_BENCH_BASELINE ?? JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).config?.benchBaseline;
  if (!wanted || wanted === 'none') return undefined;
  if (existsSync(join(wanted, 'isdlc.cjs'))) return wanted;
  const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let sha;
  try {
    sha = git('rev-parse', '--verify', `${wanted}^{commit}`);
  } catch {
    throw new Error(`the bench baseline ${JSON.stringify(wanted)} is neither a built dist/ folder nor a revision of this repository`);
  }
  const dir = join(repo, '.bench-tmp', `baseline-${sha.slice(0, 12)}`);
  const dist = join(dir, 'dist');
  if (existsSync(join(dist, 'isdlc.cjs'))) return dist;
  process.stderr.write(`bench: building the baseline ${sha.slice(0, 12)} into ${dir} (once)\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${repo}" archive ${sha} | tar -x -C "${dir}"`], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dist;
}

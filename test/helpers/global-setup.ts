// The tests drive the bundled files users run. `npm test` builds first; a bare `vitest` builds here if
// dist/ is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup(): void {
  if (!existsSync('dist/isdlc.cjs') || !existsSync('dist/hook-tool-call.cjs') || !existsSync('dist/cli.cjs')) {
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  }
}

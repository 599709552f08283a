// Runs the hook bundle for the event's family. When it is missing, will not load, or returns without
// answering (a bundle answers and exits), something else answers instead, so a broken install is never
// a silent allow: the full CLI (every guard), else another family's bundle (which still reports the
// broken install and refuses advances), else the executable's own last-resort answer.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runWithCodeCache } from '../util/code-cache.js';
import { bundleFile, FAMILIES, MISSING_BUNDLES, type EventFamily } from './event-family.js';
import type { HookInput } from './stdio.js';
import { answerWithoutBundles } from './without-bundles.js';
import { verifiedBundle } from './verified-bundle.js';

interface BundleRun {
  dir: string;
  family: EventFamily;
  /** The host that sent the call (`--host`). */
  hostId: string;
  input: HookInput;
  /** The hook's own arguments (after `hook`). */
  args: string[];
  requireFn: NodeJS.Require;
  /** Which of the family bundle's code caches this call uses (event-family.ts). */
  variant?: string;
}

interface CliModule {
  hookMain(args: string[], bundle: { guards: readonly unknown[] }): void;
  HOOK_GUARDS: readonly unknown[];
}

export function runHookBundle({ dir, family, hostId, input, args, requireFn, variant }: BundleRun): void {
  const failed: string[] = [];
  const details: string[] = [];
  const attempt = (file: string, run: () => void, path = join(dir, file)): void => {
    if (!existsSync(path)) {
      failed.push(file);
      details.push(`${file} is missing`);
      return;
    }
    (globalThis as Record<string, unknown>)[MISSING_BUNDLES] = failed.slice();
    try {
      run();
      details.push(`${file} returned without answering`);
    } catch (error) {
      details.push(
        `${file} does not load (${String((error as Error)?.message ?? error)
          .split('\n')[0]!
          .slice(0, 160)})`,
      );
    }
    failed.push(file);
  };
  // A bundle that is not what isdlc installed runs from the journal's copy (verified-bundle.ts), beside
  // this folder so that it finds its siblings here.
  const bundle = (file: string): string => verifiedBundle(join(dir, file));
  const family0 = bundle(bundleFile(family));
  attempt(bundleFile(family), () => runWithCodeCache(family0, requireFn, dir, variant), family0);
  attempt('cli.cjs', () => {
    const cli = requireFn(join(dir, 'cli.cjs')) as CliModule;
    cli.hookMain(args, { guards: cli.HOOK_GUARDS });
  });
  for (const other of FAMILIES) {
    if (other === family) continue;
    const path = bundle(bundleFile(other));
    attempt(bundleFile(other), () => runWithCodeCache(path, requireFn, dir), path);
  }
  answerWithoutBundles(input, details, hostId);
}

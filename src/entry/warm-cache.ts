// `isdlc hook --warm-cache` (run by `isdlc init`): each hook bundle sends one call of each kind it answers
// through the engine, in a throw-away project, so that the V8 code cache written when the process exits
// holds the compiled code of every path, not only of whichever event happened to come first. The calls
// are each registered host's samples, in its own wire format.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Guard } from '../engine/guard.js';
import { runHook } from '../engine/run-hook.js';
import type { HostHookSide } from '../hosts/host.js';
import { BIN_FILES } from '../integrity/bin-files.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { cacheVariant, familyOf, type EventFamily } from './event-family.js';
import { shrinkLargeStrings } from './shrink-payload.js';

/** `variant`: only the sample calls of that kind (event-family.ts), for that kind's own cache. */
export function warmCache(family: EventFamily, guards: readonly Guard[], hosts: readonly HostHookSide[], guarded: GuardedSet, variant?: string): void {
  // node:os here only: every hook call loads this bundle, few warm its cache.
  const project = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), 'isdlc-warm-'));
  try {
    new JournaledStateStore(join(project, '.isdlc/state.json')).update((draft) => {
      Object.assign(draft, {
        current_phase: '06-implementation',
        active_workflow: {
          type: 'feature',
          phases: ['01-requirements', '06-implementation'],
          current_phase: '06-implementation',
          current_phase_index: 1,
          artifact_folder: 'REQ-0001-warm',
        },
        phases: { '06-implementation': { status: 'in_progress' } },
        skill_usage_log: [],
      });
    });
    // Set up as init leaves a project (an install record, the bin files), so that these calls go through
    // the tamper check and the install check as every real call does: the first takes the files into a
    // journal, the others compare with it. Without them, a call compiled that code anew each time.
    mkdirSync(join(project, '.isdlc/bin'), { recursive: true });
    for (const file of BIN_FILES) writeFileSync(join(project, '.isdlc/bin', file), '');
    writeFileSync(join(project, '.isdlc/install.json'), '{}\n');
    for (const host of hosts) {
      const ofThisKind = (p: Record<string, unknown>): boolean => {
        const event = String(p['hook_event_name']);
        if (familyOf(event) !== family) return false;
        if (!variant) return true;
        const parsed = host.hook.parse(p);
        return cacheVariant(family, event, parsed.ok ? parsed.event.tool?.kind : undefined) === variant;
      };
      for (const payload of host.warmSamples(project).filter(ofThisKind)) {
        // As hookMain hands it over: through the cut of large strings.
        runHook({
          host: host.hook,
          guarded,
          payload: shrinkLargeStrings(Buffer.from(JSON.stringify(payload))).toString('utf8'),
          env: {},
          cwd: project,
          projectDir: project,
          guards,
        });
      }
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// `isdlc hook --warm-cache` (run by `isdlc init`): each hook bundle sends one call of each kind it answers
// through the engine, in a throw-away project, so that the V8 code cache written when the process exits
// holds the compiled code of every path, not only of whichever event happened to come first. The calls
// are each registered host's samples, in its own wire format.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Guard } from '../engine/guard.js';
import { runHook } from '../engine/run-hook.js';
import type { HostHookSide } from '../hosts/host.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { familyOf, type EventFamily } from './event-family.js';

export function warmCache(family: EventFamily, guards: readonly Guard[], hosts: readonly HostHookSide[], guarded: GuardedSet): void {
  const project = mkdtempSync(join(tmpdir(), 'isdlc-warm-'));
  try {
    new JournaledStateStore(join(project, '.isdlc/state.json')).update((draft) => {
      Object.assign(draft, {
        current_phase: '06-implementation',
        active_workflow: { type: 'feature', phases: ['01-requirements', '06-implementation'], current_phase: '06-implementation', current_phase_index: 1, artifact_folder: 'REQ-0001-warm' },
        phases: { '06-implementation': { status: 'in_progress' } },
        skill_usage_log: [],
      });
    });
    for (const host of hosts) {
      for (const payload of host.warmSamples(project).filter((p) => familyOf(String(p['hook_event_name'])) === family)) {
        runHook({ host: host.hook, guarded, payload: JSON.stringify(payload), env: {}, cwd: project, projectDir: project, guards });
      }
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// The feature switch that turns every hook of Codex off, isdlc's with them: `[features] hooks = false`, or
// its older name `codex_hooks`, in the person's config or in the project's `.codex/config.toml` (Codex
// honours both places; a hook's trust does not matter then, nor `--dangerously-bypass-hook-trust`).
import { recordOrUndefined } from '../../util/json.js';

/** The names Codex reads the hooks feature under. */
export const HOOKS_FEATURES = ['hooks', 'codex_hooks'] as const;

/** What a parsed config sets the hooks feature to, under each name it sets (a value Codex refuses included). */
export function hooksFeatureOf(config: Record<string, unknown>): Record<string, unknown> {
  const features = recordOrUndefined(config['features']);
  const set: Record<string, unknown> = {};
  for (const name of HOOKS_FEATURES) if (features && features[name] !== undefined) set[name] = features[name];
  return set;
}

/** The setting that switches hooks off (`[features] hooks = false`), if the config has one. */
export function hooksSwitchedOff(config: Record<string, unknown>): string | undefined {
  const off = Object.entries(hooksFeatureOf(config)).find(([, value]) => value === false);
  return off ? `[features] ${off[0]} = false` : undefined;
}

// The one table of legacy phase keys. Earlier iSDLC layouts numbered some phases differently; a
// workflow or state written with an old key reads as the current one everywhere.

export const PHASE_KEY_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  '13-test-deploy': '12-test-deploy',
  '14-production': '13-production',
  '15-operations': '14-operations',
  '16-upgrade-plan': '15-upgrade-plan',
  '16-upgrade-execute': '15-upgrade-execute',
});

export function normalizePhaseKey(key: string): string;
export function normalizePhaseKey(key: string | null | undefined): string | undefined;
export function normalizePhaseKey(key: string | null | undefined): string | undefined {
  if (typeof key !== 'string') return undefined;
  const trimmed = key.trim();
  return PHASE_KEY_ALIASES[trimmed] ?? trimmed;
}

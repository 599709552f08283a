/** Minutes from an ISO time to `to`, to one decimal; undefined when `from` is not a time. */
export function minutesBetween(from: unknown, to: Date): number | undefined {
  const start = typeof from === 'string' ? Date.parse(from) : NaN;
  if (!Number.isFinite(start)) return undefined;
  return Math.max(0, Math.round((to.getTime() - start) / 6000) / 10);
}

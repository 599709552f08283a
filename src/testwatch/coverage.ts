// Coverage, when a run reports it: the overall line coverage percentage, or undefined.

const PATTERNS: readonly RegExp[] = [
  // istanbul / c8 text table (Jest, Vitest, nyc): "All files |   85.71 |   66.67 |   100 |   85.71 |" (lines last)
  /^All files\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*([\d.]+)\s*\|/m,
  // istanbul text-summary: "Lines        : 85.71% ( 6/7 )"
  /^Lines\s*:\s*([\d.]+)%/m,
  // pytest-cov / coverage.py: "TOTAL      10      2    80%" (optionally with branch columns)
  /^TOTAL(?:\s+\d+)+\s+([\d.]+)%\s*$/m,
  // node --test --experimental-test-coverage, TAP or spec: "# all files   | 100.00 |    80.00 |   66.67 |" (lines first)
  // \u2139 is ℹ, escaped so that the hook bundles stay ASCII (scripts/build.mjs)
  /^(?:#|\u2139) all files\s*\|\s*([\d.]+)\s*\|/m,
  // cargo tarpaulin: "85.00% coverage, 17/20 lines covered"
  /^([\d.]+)% coverage, \d+\/\d+ lines covered/m,
];

export function parseCoverage(text: string): number | undefined {
  // The figure printed last, whichever tool's shape it has: a coverage tool reports after the tests, so an
  // earlier line in another tool's shape is not its word.
  let last: RegExpMatchArray | undefined;
  for (const pattern of PATTERNS) {
    const matches = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))];
    const candidate = matches[matches.length - 1];
    if (candidate && (last === undefined || (candidate.index ?? 0) > (last.index ?? 0))) last = candidate;
  }
  if (last) return Number(last[1]);
  // go: one "coverage: 85.0% of statements" per package; the lowest is the honest figure.
  const go = [...text.matchAll(/coverage: ([\d.]+)% of statements/g)].map((match) => Number(match[1]));
  return go.length > 0 ? Math.min(...go) : undefined;
}

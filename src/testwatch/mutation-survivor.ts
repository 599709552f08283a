// One mutant the tests did not notice, in the words a refusal uses. Apart from the report reader, which
// loads the metrics library: the gate's account of a recorded run needs only this.
import type { Survivor } from './mutation-report.js';

/** `src/slug.js:3 EqualityOperator: a === b → a !== b (covered by "joins words", not caught)` */
export function describeSurvivor(survivor: Survivor): string {
  const change = survivor.original !== undefined && survivor.replacement !== undefined ? `: ${survivor.original} → ${survivor.replacement}` : '';
  const why =
    survivor.status === 'Survived'
      ? survivor.covered_by?.length
        ? ` (covered by ${survivor.covered_by.map((name) => `"${name}"`).join(', ')}, not caught)`
        : ' (not caught)'
      : survivor.status === 'NoCoverage'
        ? ' (no test runs this code)'
        : survivor.status === 'Ignored'
          ? ` (ignored by the tool${survivor.reason ? `: ${survivor.reason}` : ''}; counts as not caught)`
          : ' (never tested: the run stopped first)';
  return `${survivor.file}:${survivor.line} ${survivor.mutator}${change}${why}`;
}

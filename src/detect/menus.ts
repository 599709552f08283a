// The A/R/C elicitation menu: recognising that an agent presented it, and that what the user typed next
// was a choice from it. A sentence like "select an option" is neither.

// Characters past ASCII are written as \u escapes, so that the hook bundles stay ASCII (scripts/build.mjs):
// \u2013 –, \u2713 ✓, \u2714 ✔.
const MENU_OPTIONS: readonly [string, RegExp][] = [
  ['adjust', /(?:^|[\s*|>])[[(]?A[\])][*\s]*[:.\u2013-]?\s*\**Adjust\b/im],
  ['refine', /(?:^|[\s*|>])[[(]?R[\])][*\s]*[:.\u2013-]?\s*\**Refine\b/im],
  ['continue', /(?:^|[\s*|>])[[(]?C[\])][*\s]*[:.\u2013-]?\s*\**Continue\b/im],
  ['save', /(?:^|[\s*|>])[[(]?S[\])][*\s]*[:.\u2013-]?\s*\**Save\b/im],
  ['exit', /(?:^|[\s*|>])[[(]?X[\])][*\s]*[:.\u2013-]?\s*\**Exit\b/im],
];

export type MenuChoice = 'adjust' | 'refine' | 'continue' | 'save' | 'exit';

/** The menu options a text presents; two or more make it a menu. */
export function menuOptionsIn(text: string): MenuChoice[] {
  return MENU_OPTIONS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name as MenuChoice);
}

export function presentsMenu(text: string): boolean {
  return menuOptionsIn(text).length >= 2;
}

const BY_LETTER: Record<string, MenuChoice> = { a: 'adjust', r: 'refine', c: 'continue', s: 'save', x: 'exit' };

const CHOICE_FORMS: readonly RegExp[] = [
  /^[[(]?([arcsx])[\])]?[.!]?$/i, // "C", "[s]", "x."
  /^[[(]?([arcsx])[\])]?\s*[:\-\u2013]\s*\S/i, // "a: shorter title", "A - add detail"
  /^[[(]([arcsx])[\])]/i, // "[A] add more detail"
];

/**
 * The user's choice, when their message makes one (`C`, `[S]`, `save`, `a: shorter title`), or null.
 * Only meaningful right after a menu was presented.
 */
export function menuChoiceIn(prompt: string): MenuChoice | null {
  const text = prompt.trim();
  for (const form of CHOICE_FORMS) {
    const match = form.exec(text);
    if (match) return BY_LETTER[match[1]!.toLowerCase()] ?? null;
  }
  const word = /^(adjust|refine|continue|save|exit)(?=$|[\s.!:,;-])/i.exec(text);
  return word ? (word[1]!.toLowerCase() as MenuChoice) : null;
}

/**
 * The seven steps of the requirements elicitation, by number, under the names the JavaScript framework
 * stored in `steps_completed`.
 */
export const ELICITATION_STEPS = ['project_discovery', 'user_personas', 'core_features', 'nfr', 'user_stories', 'prioritization', 'finalization'] as const;

export interface CompletedStep {
  step: number;
  name: string;
}

/** How a step is named in an agent's report: "Step 2", or the framework's words for it (fixed number). */
const STEP_NAMES: readonly [RegExp, number | null][] = [
  [/\bstep\s+(\d+)\b/gi, null],
  [/\bproject\s+discovery\b/gi, 1],
  [/\bpersonas?\s+identification\b/gi, 2],
  [/(?<!non-)\bfunctional\s+requirements\b/gi, 3],
  [/\bnon-functional\s+requirements\b/gi, 4],
  [/\buser\s+stories\b/gi, 5],
  [/\bprioriti[sz]ation\b/gi, 6],
];

/**
 * After the step's name, in the same sentence: "is now complete", not "not complete". A numbered step may
 * also be "done"; a named one, as in the framework, only "complete".
 */
const DONE_AFTER = /^([^\n.!?]*?)\b(?:complete|completed|done)\b/i;
const COMPLETE_AFTER = /^([^\n.!?]*?)\b(?:complete|completed)\b/i;
const NEGATED = /\bnot\b|n't\b|\byet to\b/i;

function stepOf(number: number): CompletedStep | null {
  const name = ELICITATION_STEPS[number - 1];
  return name ? { step: number, name } : null;
}

/**
 * Steps the agent reports done, in the order it says them: "Step 1 is now complete", "✓ Step 3",
 * "Persona identification is now complete". Only the seven elicitation steps count.
 */
export function completedStepsIn(text: string): CompletedStep[] {
  const found: { at: number; step: CompletedStep }[] = [];
  for (const [pattern, fixed] of STEP_NAMES) {
    for (const match of text.matchAll(pattern)) {
      const after = (fixed === null ? DONE_AFTER : COMPLETE_AFTER).exec(text.slice(match.index + match[0].length));
      const ticked = fixed === null && /[\u2713\u2714]\s*$/.test(text.slice(0, match.index));
      if (!ticked && (!after || NEGATED.test(after[1]!))) continue;
      const step = stepOf(fixed ?? Number(match[1]));
      if (step) found.push({ at: match.index, step });
    }
  }
  const steps = new Map<string, CompletedStep>();
  for (const { step } of found.sort((a, b) => a.at - b.at)) if (!steps.has(step.name)) steps.set(step.name, step);
  return [...steps.values()];
}

/** A `steps_completed` entry as the framework named it; isdlc once stored the step's number ("2"). */
export function stepNameOf(entry: string): string {
  return /^\d+$/.test(entry) ? (stepOf(Number(entry))?.name ?? entry) : entry;
}

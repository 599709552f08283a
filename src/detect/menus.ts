// The A/R/C elicitation menu (seed 000 AC-IE-012): recognising that an agent presented it, and that what
// the user typed next was a choice from it. A sentence like "select an option" is neither.

const MENU_OPTIONS: readonly [string, RegExp][] = [
  ['adjust', /(?:^|[\s*|>])[[(]?A[\])][*\s]*[:.–-]?\s*\**Adjust\b/im],
  ['refine', /(?:^|[\s*|>])[[(]?R[\])][*\s]*[:.–-]?\s*\**Refine\b/im],
  ['continue', /(?:^|[\s*|>])[[(]?C[\])][*\s]*[:.–-]?\s*\**Continue\b/im],
  ['save', /(?:^|[\s*|>])[[(]?S[\])][*\s]*[:.–-]?\s*\**Save\b/im],
  ['exit', /(?:^|[\s*|>])[[(]?X[\])][*\s]*[:.–-]?\s*\**Exit\b/im],
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
  /^[[(]?([arcsx])[\])]?\s*[:\-–]\s*\S/i, // "a: shorter title", "A - add detail"
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

/** Numbered steps the agent reports done: "Step 3 complete", "✓ Step 3". */
export function completedStepsIn(text: string): string[] {
  const steps = new Set<string>();
  for (const match of text.matchAll(/\bStep\s+(\d+)(?:\s+of\s+\d+)?\s*(?:[:-]\s*[^\n]*?)?\b(?:complete|completed|done)\b/gi)) steps.add(match[1]!);
  for (const match of text.matchAll(/[✓✔]\s*Step\s+(\d+)\b/g)) steps.add(match[1]!);
  return [...steps];
}

// Articles are found by their headings, `### Article {ID}: {Title}`, wherever they stand in the file.

export interface Constitution {
  /** Article ID (a Roman numeral) to title, in the order the file gives them. */
  articles: Map<string, string>;
}

const ARTICLE_HEADING = /^###\s+Article\s+([IVXLCDM]+)\s*:\s*(.+?)\s*$/gim;

export function parseConstitution(text: string): Constitution {
  const articles = new Map<string, string>();
  for (const match of text.matchAll(ARTICLE_HEADING)) {
    const [, id, title] = match;
    if (id && title && !articles.has(id.toUpperCase())) articles.set(id.toUpperCase(), title);
  }
  return { articles };
}

/** `Article VII: Artifact Traceability`, or `Article XV (unknown)` when the constitution lacks it. */
const ROMAN: readonly [number, string][] = [
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

function roman(n: number): string {
  let out = '';
  for (const [value, letters] of ROMAN) while (n >= value) [n, out] = [n - value, out + letters];
  return out;
}

/** An article as people write it ("Article I", "art. iv", "4", " ix ") as the id the constitution uses ("I", "IV", "IX"). */
export function articleId(written: string): string {
  const bare = written
    .trim()
    .replace(/^(?:article|art\.?)\s*/i, '')
    .replace(/[.:]$/, '')
    .trim();
  return /^\d+$/.test(bare) && Number(bare) > 0 && Number(bare) < 40 ? roman(Number(bare)) : bare.toUpperCase();
}

export function describeArticle(constitution: Constitution | null, id: string): string {
  if (!constitution) return `Article ${id}`;
  const title = constitution.articles.get(id.toUpperCase());
  return title ? `Article ${id}: ${title}` : `Article ${id} (unknown)`;
}

/** The articles to check as a checklist, those already checked ticked. */
export function articleChecklist(constitution: Constitution | null, articles: readonly string[], checked: ReadonlySet<string>): string {
  return articles.map((id) => `- [${checked.has(id) ? 'x' : ' '}] ${describeArticle(constitution, id)}`).join('\n');
}

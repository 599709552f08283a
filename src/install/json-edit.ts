// Changing a JSON file of the person's in place: only what changes is touched, in the file's own
// indentation and line ends, and the rest stays byte for byte as they wrote it. A file on one line stays
// on one line. Install-time only: the hook never loads jsonc-parser (docs/hot-path.md). Its ESM build: the
// UMD one requires its parts by names a bundle cannot follow.
import { applyEdits, findNodeAtLocation, format, modify, parseTree, type FormattingOptions, type JSONPath, type Node } from 'jsonc-parser/lib/esm/main.js';
import { isRecord } from '../util/json.js';

/** How the file indents and ends its lines; undefined for a file on one line (edits are inserted as they are). */
export function formattingOf(text: string): FormattingOptions | undefined {
  if (!text.trim().includes('\n')) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent?.length ?? 2, eol };
}

/** The same JSON value, whatever the order of the objects' keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, i) => sameJson(value, b[i]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

/** `value` written the way a file of `like` is: its indentation, its line ends, a final line end if it had one. */
export function serialiseLike(like: string | undefined, value: unknown): string {
  const formatting = like === undefined ? { insertSpaces: true, tabSize: 2, eol: '\n' } : formattingOf(like);
  if (!formatting) return `${JSON.stringify(value)}${like?.endsWith('\n') ? '\n' : ''}`;
  const text = JSON.stringify(value, null, formatting.insertSpaces ? formatting.tabSize : '\t').replaceAll('\n', formatting.eol ?? '\n');
  return like === undefined || /\r?\n$/.test(like) ? `${text}${formatting.eol ?? '\n'}` : text;
}

/**
 * The pairs of `from` and `to` entries that stay where they are: the longest common subsequence, by value.
 * Lists in settings hold tens of entries: the quadratic table costs nothing.
 */
function keptPairs(from: readonly unknown[], to: readonly unknown[]): [number, number][] {
  const n = from.length;
  const m = to.length;
  const keys = (list: readonly unknown[]) => list.map((value) => JSON.stringify(value));
  const a = keys(from);
  const b = keys(to);
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * The edits that take `text` (whose value is `from`) to `to`. jsonc-parser inserts and replaces; an entry is
 * removed here, from the parse tree's offsets (its own removal of an array's last entry leaves a stray quote
 * in 3.3.1): with the comma and the space up to the next entry, or from the one before for the last.
 */
class JsonEditor {
  constructor(
    public text: string,
    private readonly formatting: FormattingOptions | undefined,
  ) {}

  /**
   * Sets or inserts `value` at `path`. Only what is inserted is laid out in the file's indentation (jsonc-parser
   * would lay out the whole lines it touches, a neighbour's one-line value with them); inside a container
   * on one line it is inserted as it is, and the container stays on one line. Where the edit opens a
   * container (the first entry, an empty one), jsonc-parser lays out the lines it touches.
   */
  private put(path: JSONPath, value: unknown, insert = false): void {
    const root = parseTree(this.text);
    const target = root && findNodeAtLocation(root, path);
    const entry = target?.parent?.type === 'property' ? target.parent : target;
    const container = entry && !insert ? entry.parent : root && findNodeAtLocation(root, path.slice(0, -1));
    const oneLine = !this.formatting || !container || !this.text.slice(container.offset, container.offset + container.length).includes('\n');
    const opens = !container?.children?.length || (insert && path.at(-1) === 0);
    if (oneLine || opens) {
      const formattingOptions = oneLine ? undefined : this.formatting;
      this.text = applyEdits(this.text, modify(this.text, path, value, { formattingOptions, isArrayInsertion: insert }));
      return;
    }
    const edits = modify(this.text, path, value, { isArrayInsertion: insert });
    this.text = applyEdits(this.text, edits);
    for (const edit of edits.sort((a, b) => b.offset - a.offset)) {
      const range = { offset: edit.offset, length: edit.content.length };
      this.text = applyEdits(this.text, format(this.text, range, { ...this.formatting, keepLines: false }));
    }
  }

  private remove(path: JSONPath): void {
    const root = parseTree(this.text);
    const target = root && findNodeAtLocation(root, path);
    // An object's entry is its property node (key and value); an array's is the value itself.
    const entry = target?.parent?.type === 'property' ? target.parent : target;
    const container = entry?.parent;
    if (!entry || !container?.children) return;
    const siblings: Node[] = container.children;
    const at = siblings.indexOf(entry);
    let start: number;
    let end: number;
    if (siblings.length === 1) {
      start = container.offset + 1;
      end = container.offset + container.length - 1;
    } else if (at < siblings.length - 1) {
      start = entry.offset;
      end = siblings[at + 1]!.offset;
    } else {
      const before = siblings[at - 1]!;
      start = before.offset + before.length;
      end = entry.offset + entry.length;
    }
    this.text = this.text.slice(0, start) + this.text.slice(end);
  }

  change(path: JSONPath, from: unknown, to: unknown): void {
    if (sameJson(from, to)) return;
    if (isRecord(from) && isRecord(to)) {
      for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) this.remove([...path, key]);
      for (const [key, value] of Object.entries(to)) {
        if (Object.hasOwn(from, key)) this.change([...path, key], from[key], value);
        else this.put([...path, key], value);
      }
      return;
    }
    if (Array.isArray(from) && Array.isArray(to)) {
      this.changeList(path, from, to);
      return;
    }
    this.put(path, to);
  }

  /**
   * Between two entries that stay, the entries of `from` and `to` are paired in order (an entry changed in
   * place, a hook list that lost one hook, is edited inside); what is left over is removed or inserted.
   * From the end backwards, so that the indices still to edit do not move.
   */
  private changeList(path: JSONPath, from: readonly unknown[], to: readonly unknown[]): void {
    const pairs = keptPairs(from, to);
    const gaps: { i0: number; i1: number; j0: number; j1: number }[] = [];
    let i = 0;
    let j = 0;
    for (const [pi, pj] of [...pairs, [from.length, to.length] as [number, number]]) {
      if (pi > i || pj > j) gaps.push({ i0: i, i1: pi, j0: j, j1: pj });
      i = pi + 1;
      j = pj + 1;
    }
    for (const gap of gaps.reverse()) {
      const paired = Math.min(gap.i1 - gap.i0, gap.j1 - gap.j0);
      for (let k = gap.i1 - 1; k >= gap.i0 + paired; k--) this.remove([...path, k]);
      for (let k = gap.j0 + paired; k < gap.j1; k++) this.put([...path, gap.i0 + (k - gap.j0)], to[k], true);
      for (let k = paired - 1; k >= 0; k--) this.change([...path, gap.i0 + k], from[gap.i0 + k], to[gap.j0 + k]);
    }
  }
}

/**
 * `text` (a JSON object) changed to hold `to`, touching only what differs. Should the edits not give `to`
 * exactly (a file jsonc-parser reads otherwise than JSON.parse), the whole file is written anew in its
 * own indentation instead.
 */
export function editJson(text: string, to: unknown): string {
  let from: unknown;
  try {
    from = JSON.parse(text);
  } catch {
    return serialiseLike(text, to);
  }
  const editor = new JsonEditor(text, formattingOf(text));
  try {
    editor.change([], from, to);
    if (sameJson(JSON.parse(editor.text), to)) return editor.text;
  } catch {
    // written anew below
  }
  return serialiseLike(text, to);
}

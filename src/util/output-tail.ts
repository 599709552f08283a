// The end of a process's output, kept in bounded memory however much it writes, and rendered as plain
// text: colour codes and cursor controls removed, carriage-return progress lines reduced to their last state.

/** Escape sequences: CSI (colours, cursor), OSC (titles, links), and the two-character ones. */
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Colour codes and other terminal controls removed; `\r\n` as `\n`; a line rewritten with `\r` as its last state. */
export function plainText(raw: string): string {
  return raw
    .replace(ESCAPES, '')
    .split('\n')
    .map((line) => {
      const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
      const lastRewrite = bare.lastIndexOf('\r');
      return (lastRewrite >= 0 ? bare.slice(lastRewrite + 1) : bare).replace(CONTROLS, '');
    })
    .join('\n');
}

export class OutputTail {
  private chunks: string[] = [];
  private size = 0;
  private dropped = false;
  private readonly keep: number;

  /** `keep`: how many raw characters to hold on to (the rendered tail is cut from these). */
  constructor(keep = 16_000) {
    this.keep = keep;
  }

  push(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.size += text.length;
    if (this.size > this.keep * 2) {
      const joined = this.chunks.join('');
      const kept = joined.slice(joined.length - this.keep);
      this.chunks = [kept];
      this.size = kept.length;
      this.dropped = true;
    }
  }

  /** The last `maxLines` lines, at most `maxChars` characters, as plain text; `…` marks a cut. */
  render(maxLines = 40, maxChars = 4000): string {
    let lines = plainText(this.chunks.join('')).split('\n');
    let cut = this.dropped;
    if (cut && lines.length > 1) lines = lines.slice(1); // the first line is likely a fragment
    while (lines.length > 0 && (lines.at(-1) ?? '').trim() === '') lines.pop();
    if (lines.length > maxLines) {
      lines = lines.slice(-maxLines);
      cut = true;
    }
    let text = lines.join('\n');
    const room = cut || text.length > maxChars ? maxChars - 2 : maxChars; // room for the `…` line
    if (text.length > room) {
      text = text.slice(text.length - room);
      const firstBreak = text.indexOf('\n');
      if (firstBreak >= 0 && firstBreak < text.length - 1) text = text.slice(firstBreak + 1);
      cut = true;
    }
    return cut && text !== '' ? `…\n${text}` : text;
  }
}

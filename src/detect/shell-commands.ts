// Shell command lines as the agent's shell tool receives them: the commands they chain.

/** Splits a command line at `&&`, `||`, `;`, `|` and newlines, outside quotes. */
export function splitCommandLine(line: string): { text: string; joinedBy: string }[] {
  const parts: { text: string; joinedBy: string }[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"' && i + 1 < line.length) {
        current += ch + line[++i];
        continue;
      }
      if (ch === quote) quote = null;
      current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
      continue;
    }
    const two = line.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      parts.push({ text: current, joinedBy: two });
      current = '';
      i += 1;
      continue;
    }
    if (ch === ';' || ch === '\n' || (ch === '|' && line[i + 1] !== '|') || (ch === '&' && line[i + 1] !== '&' && line[i - 1] !== '>' && line[i + 1] !== '>')) {
      parts.push({ text: current, joinedBy: ch === '\n' ? ';' : ch });
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push({ text: current, joinedBy: '' });
  return parts.map((part) => ({ text: part.text.trim(), joinedBy: part.joinedBy })).filter((part) => part.text !== '');
}

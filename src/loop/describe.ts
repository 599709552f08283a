// One-line renderings of what a rule looks at, shared by the default rule names and the result messages.

/** At most `max` characters (code points), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** A command as a person would type it: the line itself, or the argument vector with quoting where needed. */
export function describeCommand(command: string | readonly string[], max = 120): string {
  const line =
    typeof command === 'string'
      ? command.trim().replace(/\s+/g, ' ')
      : command.map((arg) => (arg === '' || /[\s"'`$\\|&;<>()*?#~]/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
  return clip(line, max);
}

/** A regular expression as a literal: `/pattern/flags`. */
export function describePattern(pattern: string, flags: string, max = 80): string {
  return `/${clip(pattern.replace(/\s+/g, ' '), max)}/${flags}`;
}

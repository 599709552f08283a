// TOML is read only for Codex's config files: by doctor, and by the tamper check when `.codex/config.toml`
// changed. The bundle keeps the parser in its own file (dist/toml.cjs), loaded here on first use, so hook
// calls that never meet a changed TOML file never pay for it.
import type * as SmolToml from 'smol-toml';

let parser: typeof SmolToml | undefined;

/** The TOML text as a plain object; throws (a TomlError that says where) when it is not TOML. */
export function parseToml(text: string): Record<string, unknown> {
  parser ??= require('smol-toml') as typeof SmolToml;
  return parser.parse(text);
}

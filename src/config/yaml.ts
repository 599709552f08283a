// YAML is parsed only for a project whose skills manifest is YAML. The bundle keeps the parser in its own
// file, loaded here on first use, so hook calls that never meet YAML never pay for it.
import type * as Yaml from 'yaml';

let parser: typeof Yaml | undefined;

export function parseYaml(text: string): unknown {
  parser ??= require('yaml') as typeof Yaml;
  return parser.parse(text);
}

// What `isdlc init` puts in `.isdlc/bin/`: its own module, so the hook can check the install is whole
// without loading the installer (which needs node:crypto, about 20 ms).
export const BIN_FILES = [
  'isdlc.cjs',
  'hook-tool-call.cjs',
  'hook-tool-result.cjs',
  'hook-turn.cjs',
  'cli.cjs',
  'yaml.cjs',
  'toml.cjs',
  'tar.cjs',
  'shell-quote.cjs',
  'loop.cjs',
  'validate.cjs',
  'gate.cjs',
  'schemas.cjs',
  'tamper.cjs',
  'mcp.cjs',
] as const;

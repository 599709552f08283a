// Bundles isdlc into dist/: isdlc.cjs (the executable: a few lines that carry its code as a string and
// run it through V8's code cache, src/entry/launcher.ts), hook-tool-call.cjs,
// hook-tool-result.cjs and hook-turn.cjs (`isdlc hook` for each kind of event, the hot path), cli.cjs
// (every other command), yaml.cjs (the YAML parser, loaded only for YAML config), toml.cjs (the TOML
// parser, loaded only for Codex's config files), tar.cjs (the tar reader, loaded only when the gate compares
// an installed package with its tarball) and shell-quote.cjs (the
// shell parser, loaded only for a command line that names a state file or a commit), loop.cjs (the
// iteration loop: SQLite store on Node's own
// node:sqlite, rules, Stop answer; loaded only where a loop is at work), validate.cjs (a loop's rules run: the program of the Stop hook's
// validation worker), gate.cjs (a phase gate's evaluation, loaded by a hook only when a
// call asks to pass a gate), schemas.cjs (the config files' schemas and their library, loaded only when a
// project's own config file is checked), tamper.cjs (the tamper check past its first look, loaded only
// when a watched file's stat moved) and mcp.cjs (the MCP server, loaded only by `isdlc mcp`).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Modules that ship as their own file in dist/ and are required from there at run time. */
const SIBLINGS = {
  yaml: './yaml.cjs',
  'shell-quote': './shell-quote.cjs',
  'smol-toml': './toml.cjs',
  tar: './tar.cjs',
  './cli.cjs': './cli.cjs',
  './mcp.cjs': './mcp.cjs',
};
const siblingFiles = {
  name: 'sibling-files',
  setup(b) {
    // The bundled config defaults as JSON text, parsed where they are used (src/config/project-config.ts):
    // as object literals they were built on every hook call.
    b.onLoad({ filter: /[\\/]src[\\/]config[\\/]defaults[\\/][^\\/]+\.json$/ }, (args) => ({
      contents: JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8'))),
      loader: 'text',
    }));
    b.onResolve({ filter: /^(yaml|shell-quote|smol-toml|tar|\.\/cli\.cjs|\.\/mcp\.cjs)$/ }, (args) => ({ path: SIBLINGS[args.path], external: true }));
    // src/loop/load.ts requires the loop's API: in a build that is the loop bundle beside the caller.
    b.onResolve({ filter: /^\.\/api\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'loop', 'load.ts')) ? { path: './loop.cjs', external: true } : undefined,
    );
    // src/gates/load-gate.ts requires the gate's evaluation: in a build that is the gate bundle beside the caller.
    b.onResolve({ filter: /^\.\/evaluate\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'gates', 'load-gate.ts')) ? { path: './gate.cjs', external: true } : undefined,
    );
    // Loaders that take a module from a bundle beside them in a build (dist/schemas.cjs, dist/tamper.cjs):
    // their import of the module itself, for the sources, is left empty.
    b.onResolve({ filter: /^\.\/(schemas|tamper-report)\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'config', 'load-schemas.ts')) || args.importer.endsWith(join('src', 'integrity', 'load-tamper.ts'))
        ? { path: args.path, namespace: 'left-empty' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'left-empty' }, () => ({ contents: '', loader: 'js' }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  loader: { '.md': 'text' },
  define: { __ISDLC_VERSION__: JSON.stringify(version) },
  // Smaller files read and compile faster on every hook call (the hook's hot path, docs/hot-path.md).
  minify: true,
  keepNames: false,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// The config files' JSON Schemas, made from the schemas isdlc checks them with (src/config/json-schemas.ts):
// shipped in dist/schemas/, and carried by cli.cjs for `isdlc init` to put in a project.
const made = await build({ ...common, minify: false, entryPoints: ['src/config/json-schemas.ts'], write: false });
const schemaModule = { exports: {} };
new Function('module', 'exports', 'require', made.outputFiles[0].text)(schemaModule, schemaModule.exports, createRequire(import.meta.url));
const jsonSchemas = Object.fromEntries(
  Object.entries(schemaModule.exports.configJsonSchemas()).map(([name, schema]) => [name, `${JSON.stringify(schema, null, 2)}\n`]),
);
mkdirSync('dist/schemas', { recursive: true });
for (const [name, text] of Object.entries(jsonSchemas)) writeFileSync(`dist/schemas/${name}.json`, text);
// The executable's code, carried as a string by dist/isdlc.cjs (src/entry/launcher.ts), which runs it
// through V8's code cache.
const launched = await build({ ...common, entryPoints: ['src/entry/isdlc.ts'], outfile: 'dist/isdlc.cjs', write: false, plugins: [siblingFiles] });
await Promise.all([
  build({
    ...common,
    entryPoints: ['src/entry/launcher.ts'],
    outfile: 'dist/isdlc.cjs',
    banner: { js: '#!/usr/bin/env node' },
    define: { ...common.define, __ISDLC_LAUNCHER__: JSON.stringify(launched.outputFiles[0].text) },
  }),
  ...['tool-call', 'tool-result', 'turn'].map((family) =>
    build({ ...common, entryPoints: [`src/entry/hook-${family}.ts`], outfile: `dist/hook-${family}.cjs`, plugins: [siblingFiles] }),
  ),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.cjs',
    plugins: [siblingFiles],
    define: { ...common.define, __ISDLC_JSON_SCHEMAS__: JSON.stringify(JSON.stringify(jsonSchemas)) },
  }),
  build({ ...common, entryPoints: ['src/entry/loop.ts'], outfile: 'dist/loop.cjs', plugins: [siblingFiles] }),
  build({ ...common, entryPoints: ['src/loop/validate.ts'], outfile: 'dist/validate.cjs', plugins: [siblingFiles] }),
  build({ ...common, entryPoints: ['src/gates/evaluate.ts'], outfile: 'dist/gate.cjs', plugins: [siblingFiles] }),
  build({ ...common, entryPoints: ['src/config/schemas.ts'], outfile: 'dist/schemas.cjs', plugins: [siblingFiles] }),
  build({ ...common, entryPoints: ['src/integrity/tamper-report.ts'], outfile: 'dist/tamper.cjs', plugins: [siblingFiles] }),
  build({ ...common, entryPoints: ['src/mcp/server.ts'], outfile: 'dist/mcp.cjs', plugins: [siblingFiles] }),
  build({
    ...common,
    stdin: { contents: "module.exports = require('yaml');", resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/yaml.cjs',
  }),
  build({
    ...common,
    stdin: { contents: "module.exports = require('shell-quote');", resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/shell-quote.cjs',
  }),
  build({
    ...common,
    stdin: { contents: "module.exports = require('smol-toml');", resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/toml.cjs',
  }),
  build({
    ...common,
    stdin: { contents: "module.exports = require('tar');", resolveDir: process.cwd(), loader: 'js' },
    outfile: 'dist/tar.cjs',
  }),
]);
chmodSync('dist/isdlc.cjs', 0o755);
// What runs through the code cache is read as ASCII (src/entry/code-cache.ts): a non-ASCII character
// (esbuild leaves those of regular expressions as they are) would make the whole source a two-byte
// string again. Written as \u escapes in the sources instead.
for (const file of ['isdlc.cjs', 'hook-tool-call.cjs', 'hook-tool-result.cjs', 'hook-turn.cjs', 'loop.cjs', 'gate.cjs', 'schemas.cjs', 'tamper.cjs']) {
  const text = readFileSync(join('dist', file), 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0)
    throw new Error(
      `dist/${file} is not ASCII: ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}; write the character as a \\u escape in the source`,
    );
}

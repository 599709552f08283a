// The layers of src/ and the one direction imports run in (docs/architecture.md). `npm run lint` checks
// them; a violation names the rule it breaks, and the build stops there.
//
// Tiers from the top down. A folder may import its own tier and every tier below it, never one above.
// Inside a tier the order of its folders is the order they may import in (an earlier folder may import a
// later one, not the other way round), except where `peers` says the folders are independent.
const TIERS = [
  { name: 'faces', folders: ['cli', 'mcp', 'entry'], peers: true },
  { name: 'hosts', folders: ['hosts'] },
  { name: 'engine', folders: ['guards', 'engine'] },
  { name: 'operations', folders: ['install', 'workflow', 'gates', 'verify', 'loop', 'plan'] },
  { name: 'trust', folders: ['integrity', 'sandbox'], peers: true },
  { name: 'readers', folders: ['testwatch', 'detect'] },
  { name: 'state', folders: ['state', 'config'] },
  { name: 'floor', folders: ['events', 'util', 'types'], peers: true },
];

const folderPattern = (folders) => `^src/(${folders.join('|')})/`;
const forbidden = [];

TIERS.forEach((tier, index) => {
  const above = TIERS.slice(0, index).flatMap((t) => t.folders);
  if (above.length > 0) {
    forbidden.push({
      name: `layer-${tier.name}`,
      comment: `${tier.name} (${tier.folders.join(', ')}) must not import a higher layer (${above.join(', ')}): pass what it needs in from above instead`,
      severity: 'error',
      from: { path: folderPattern(tier.folders) },
      to: { path: folderPattern(above) },
    });
  }
  tier.folders.forEach((folder, at) => {
    const others = tier.peers ? tier.folders.filter((f) => f !== folder) : tier.folders.slice(0, at);
    if (others.length === 0) return;
    forbidden.push({
      name: `within-${tier.name}-${folder}`,
      comment: tier.peers
        ? `${folder}/ and ${others.join(', ')} are independent parts of the ${tier.name} layer: neither imports the other`
        : `${folder}/ sits below ${others.join(', ')} in the ${tier.name} layer and must not import them`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: folderPattern(others) },
    });
  });
});

// The command line starts the other faces (`isdlc hook`, `isdlc mcp`): the only imports between faces.
const cliToEntry = forbidden.find((rule) => rule.name === 'within-faces-cli');
cliToEntry.to.pathNot = '^src/(entry/hook-main|mcp/server)[.]ts$';

forbidden.push(
  {
    name: 'no-circular',
    comment: 'an import cycle: the modules on it cannot be understood, tested or loaded one without the other',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'hosts-apart',
    comment: 'a host adapter never imports another host: what they share belongs in a lower layer',
    severity: 'error',
    from: { path: '^src/hosts/([^/]+)/' },
    to: { path: '^src/hosts/[^/]+/', pathNot: '^src/hosts/$1/' },
  },
  {
    name: 'host-registry-only-from-faces',
    comment: 'hosts are picked at the faces (entry, cli, mcp): nothing below them names one',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(cli|mcp|entry|hosts)/' },
    to: { path: '^src/hosts/' },
  },
  {
    name: 'not-to-unresolvable',
    comment: 'an import that does not resolve to a file',
    severity: 'error',
    from: {},
    to: { couldNotResolve: true, pathNot: '^[.]/(cli|mcp|loop|gate|yaml|toml|shell-quote)[.]cjs$' },
  },
  {
    name: 'no-tests-from-src',
    comment: 'production code never imports a test or the test helpers',
    severity: 'error',
    from: { path: '^src/', pathNot: '[.]test[.]ts$' },
    to: { path: '([.]test[.]ts$|^test/)' },
  },
);

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: ['node_modules', '[.](md|json)$'] },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.json', '.md'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

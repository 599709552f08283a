// The layering rules (.dependency-cruiser.cjs, docs/architecture.md) refuse what they exist to refuse:
// imports planted in a throw-away tree shaped like src/, cruised with the project's own config.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/project.js';

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(files: Record<string, string>): { status: number | null; violations: Violation[] } {
  const dir = tempDir('isdlc-lint-');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const depcruise = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', '--config', join(REPO, '.dependency-cruiser.cjs'), ...args],
      { cwd: dir, encoding: 'utf8' },
    );
  // As `npm run lint` runs it (its exit status is what stops the build), and as JSON for the details.
  const lint = depcruise();
  const report = JSON.parse(depcruise('--output-type', 'json').stdout) as { summary: { violations: Violation[] } };
  return { status: lint.status, violations: report.summary.violations };
}

const exporting = (name: string): string => `export const ${name} = 1;\n`;

describe('the dependency rules', () => {
  it('refuse imports against the direction, cycles, hosts importing hosts and hosts named below the faces', () => {
    const { status, violations } = cruise({
      'src/integrity/journal.ts': exporting('journal'),
      'src/state/store.ts': `import { journal } from '../integrity/journal.js';\nexport const store = journal;\n`,
      'src/hosts/claude-code/wire.ts': exporting('wire'),
      'src/hosts/other/wire.ts': `import { wire } from '../claude-code/wire.js';\nexport const other = wire;\n`,
      'src/engine/run-hook.ts': `import { wire } from '../hosts/claude-code/wire.js';\nexport const run = wire;\n`,
      'src/gates/a.ts': `import { b } from './b.js';\nexport const a = () => b;\n`,
      'src/gates/b.ts': `import { a } from './a.js';\nexport const b = () => a;\n`,
      'src/mcp/tools.ts': `import { x } from '../cli/status.js';\nexport const tools = x;\n`,
      'src/cli/status.ts': exporting('x'),
    });
    const seen = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(status).not.toBe(0);
    expect(seen).toEqual(
      expect.arrayContaining([
        'layer-state: src/state/store.ts → src/integrity/journal.ts',
        'hosts-apart: src/hosts/other/wire.ts → src/hosts/claude-code/wire.ts',
        'layer-engine: src/engine/run-hook.ts → src/hosts/claude-code/wire.ts',
        'host-registry-only-from-faces: src/engine/run-hook.ts → src/hosts/claude-code/wire.ts',
        'no-circular: src/gates/a.ts → src/gates/b.ts',
        'within-faces-mcp: src/mcp/tools.ts → src/cli/status.ts',
      ]),
    );
  });

  it('let imports that follow the layers through', () => {
    const { status, violations } = cruise({
      'src/state/store.ts': exporting('store'),
      'src/integrity/journaled-state.ts': `import { store } from '../state/store.js';\nexport const journaled = store;\n`,
      'src/hosts/claude-code/wire.ts': `import { journaled } from '../../integrity/journaled-state.js';\nexport const wire = journaled;\n`,
      'src/cli/main.ts': `import { wire } from '../hosts/claude-code/wire.js';\nimport { hook } from '../entry/hook-main.js';\nexport const main = [wire, hook];\n`,
      'src/entry/hook-main.ts': exporting('hook'),
    });
    expect(violations).toEqual([]);
    expect(status).toBe(0);
  });
});

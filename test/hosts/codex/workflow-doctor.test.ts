// `isdlc doctor` on the workflow under Codex, through the built CLI: whether Codex's agent reads isdlc's
// section of AGENTS.md (an AGENTS.override.md beside it, a section taken out, a file past what Codex reads),
// and what Codex does not give isdlc, each said with how isdlc copes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, writeFile } from '../../helpers/project.js';

interface Finding {
  severity: string;
  what: string;
  fix?: string;
}

function project(): string {
  const dir = tempDir('isdlc-codex-doctor-');
  writeFile(join(dir, 'package.json'), '{"name":"x","scripts":{"test":"node --test"}}\n');
  const run = cli(['init', dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  return dir;
}

const findings = (dir: string): Finding[] => (JSON.parse(cli(['doctor', dir, '--json']).stdout) as { findings: Finding[] }).findings;
const about = (dir: string, text: string): Finding | undefined => findings(dir).find((finding) => finding.what.includes(text));

describe('isdlc doctor on the workflow under Codex', () => {
  it("says AGENTS.md carries isdlc's section, and what Codex does not give isdlc", () => {
    const dir = project();
    expect(about(dir, 'AGENTS.md tells')).toMatchObject({ severity: 'ok' });
    const limits = findings(dir).filter((finding) => finding.what.startsWith('under Codex: '));
    expect(limits.map((finding) => finding.severity)).toEqual(Array(6).fill('ok'));
    expect(limits.map((finding) => finding.what).join('\n')).toMatch(/write_stdin[\s\S]*8 holds in a row/);
  });

  it('warns, with the step, where Codex reads another file or no section', () => {
    const dir = project();
    writeFile(join(dir, 'AGENTS.override.md'), '# Ours only\n');
    expect(about(dir, 'AGENTS.override.md is in the project')).toMatchObject({ severity: 'warn', fix: expect.stringContaining('copy isdlc') });

    const other = project();
    writeFile(join(other, 'AGENTS.md'), '# Ours, without isdlc\n');
    expect(about(other, 'AGENTS.md has no isdlc section')).toMatchObject({ severity: 'warn', fix: 'isdlc init --host codex' });
    expect(cli(['init', other, '--host', 'codex', '--codex-version', '0.171.0']).status).toBe(0);
    expect(about(other, 'AGENTS.md tells')).toMatchObject({ severity: 'ok' });

    writeFile(join(other, 'AGENTS.md'), `<!-- >>> isdlc (managed by \`isdlc init\`; \`isdlc uninstall\` removes it) -->\n${'x'.repeat(40_000)}\n`);
    expect(about(other, 'bytes: Codex reads its first 32768')).toMatchObject({ severity: 'warn' });
  });
});

describe('a Codex config folder below the project', () => {
  it('fails doctor, naming the folder and the step; the project root one and those in node_modules are not named', () => {
    const dir = project();
    expect(about(dir, 'below the project')).toBeUndefined();
    writeFile(join(dir, 'src/.codex/config.toml'), 'sandbox_mode = "danger-full-access"\n\n[features]\nhooks = false\n');
    writeFile(join(dir, 'node_modules/pkg/.codex/config.toml'), '');
    const found = findings(dir);
    expect(found).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining("below the project's root (src/.codex)"),
        fix: expect.stringContaining("rm -r 'src/.codex'"),
      }),
    );
    expect(JSON.stringify(found)).not.toContain('node_modules/pkg/.codex');
  });
});

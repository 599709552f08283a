// The GATE REQUIREMENTS block, built from real config files in real project folders, and failing open to
// "" on every error; its format pinned by golden files made from the bundled defaults.
import { CONFIG_DIRS } from '../../src/hosts/hook-hosts.js';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import bundledRequirements from '../../src/config/defaults/iteration-requirements.json';
import { buildGateRequirementsBlock } from '../../src/gates/requirements-block.js';
import { cli, FIXTURES, initedProject, tempDir, writeFile, writeJson } from '../helpers/project.js';

const FOLDER = 'REQ-0024-gate-requirements-pre-injection';
const golden = (phase: string): string => readFileSync(join(FIXTURES, 'gate-blocks', `${phase}.txt`), 'utf8');
const block = (projectRoot: string, phaseKey: string, workflowType?: string, artifactFolder = FOLDER) =>
  buildGateRequirementsBlock({ phaseKey, artifactFolder, projectRoot, configDirs: CONFIG_DIRS, ...(workflowType ? { workflowType } : {}) });

function withRequirements(change: (requirements: Record<string, any>) => void): string {
  const dir = initedProject('isdlc-block-');
  const requirements = structuredClone(bundledRequirements) as Record<string, any>;
  change(requirements);
  writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), requirements);
  return dir;
}

describe('the format, pinned by golden files from the bundled defaults', () => {
  it.each(['01-requirements', '03-architecture', '06-implementation', '00-quick-scan'])('%s through `isdlc gate-requirements`', (phase) => {
    const dir = initedProject('isdlc-golden-');
    const run = cli(['gate-requirements', '--phase', phase, '--artifact-folder', FOLDER, '--workflow', 'feature', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(golden(phase));
  });
});

describe('reading the config the guards read', () => {
  const dir = initedProject('isdlc-block-');
  it("a phase's iteration requirements", () =>
    expect(block(dir, '06-implementation')).toContain('- test_iteration: enabled\n      max_iterations: 10, circuit_breaker: 3, coverage: 80%'));
  it("a phase's artifact paths", () =>
    expect(block(dir, '03-architecture')).toContain(`Required Artifacts:\n    - docs/requirements/${FOLDER}/architecture-overview.md`));
  it('article IDs mapped to their titles from the constitution', () =>
    expect(block(dir, '01-requirements')).toContain('    - Article IV: Explicit Over Implicit'));
  it('a phase key iteration-requirements does not have gives ""', () => expect(block(dir, '99-nonexistent')).toBe(''));
  it('an iteration-requirements file that cannot be read gives ""', () => {
    const broken = initedProject('isdlc-block-');
    mkdirSync(join(broken, '.isdlc/config/iteration-requirements.json'), { recursive: true }); // a folder where the file should be: EISDIR
    expect(block(broken, '06-implementation')).toBe('');
  });
  it('a broken artifact-paths file costs only the artifact paths', () => {
    const broken = initedProject('isdlc-block-');
    writeFile(join(broken, '.isdlc/config/artifact-paths.json'), '{ not json');
    const text = block(broken, '03-architecture');
    expect(text).toContain('GATE REQUIREMENTS (Phase: 03-architecture)');
    expect(text).toContain('Constitutional Articles:');
  });
  it('without a constitution the articles are named by their IDs', () => {
    const bare = tempDir('isdlc-block-bare-');
    mkdirSync(join(bare, '.isdlc'));
    const text = block(bare, '01-requirements');
    expect(text).toContain('    - Article I\n    - Article IV\n');
    expect(text).not.toContain('Specification Primacy');
  });
});

describe('template variables', () => {
  const dir = withRequirements((r) => {
    r['phase_requirements']['03-architecture'].artifact_validation = {
      enabled: true,
      paths: ['docs/fixed/overview.md', 'docs/{unknown}/{artifact_folder}/notes.md'],
    };
  });
  it('{artifact_folder} is filled in', () => expect(block(dir, '03-architecture')).toContain(`docs/requirements/${FOLDER}/architecture-overview.md`));
  it('a path without variables is unchanged', () => expect(block(dir, '03-architecture')).toContain('    - docs/fixed/overview.md'));
  it('an unknown variable is left as written', () => expect(block(dir, '03-architecture')).toContain(`docs/{unknown}/${FOLDER}/notes.md`));
  it('a folder that would leave the project is never filled in', () => {
    const text = block(dir, '03-architecture', undefined, '../../etc');
    expect(text).toContain('docs/requirements/{artifact_folder}/architecture-overview.md');
    expect(text).not.toContain('etc');
  });
});

describe('constitutional articles', () => {
  const dir = initedProject('isdlc-block-');
  it('"VII" is "Article VII: Artifact Traceability"', () => expect(block(dir, '01-requirements')).toContain('Article VII: Artifact Traceability'));
  it('all five of phase 01, in order', () => {
    expect(block(dir, '01-requirements')).toContain(
      'Constitutional Articles:\n    - Article I: Specification Primacy\n    - Article IV: Explicit Over Implicit\n    - Article VII: Artifact Traceability\n    - Article IX: Quality Gate Integrity\n    - Article XII: Cross-Platform Compatibility\n',
    );
  });
  it('an article the constitution lacks is "Article XV (unknown)"', () => {
    const unknown = withRequirements((r) => {
      r['phase_requirements']['01-requirements'].constitutional_validation.articles = ['I', 'XV'];
    });
    expect(block(unknown, '01-requirements')).toContain('    - Article XV (unknown)');
  });
  it('no constitution: raw IDs, no error', () => {
    const bare = tempDir('isdlc-block-bare-');
    mkdirSync(join(bare, '.isdlc'));
    expect(block(bare, '06-implementation')).toContain('    - Article II\n');
  });
});

describe('workflow modifiers', () => {
  const dir = initedProject('isdlc-block-');
  it('feature / 01-requirements carries scope, artifact_prefix, read_quick_scan', () => {
    expect(block(dir, '01-requirements', 'feature')).toContain(
      '  Workflow Overrides:\n    scope: "feature"\n    artifact_prefix: "REQ"\n    read_quick_scan: true',
    );
  });
  it('the ATDD modifiers as conditional context', () =>
    expect(block(dir, '06-implementation', 'feature')).toContain('    when atdd mode:\n      track_red_green_transitions: true'));
  it('a broken workflows file costs only the overrides', () => {
    const broken = initedProject('isdlc-block-');
    writeFile(join(broken, '.isdlc/config/workflows.json'), '[]');
    const text = block(broken, '01-requirements', 'feature');
    expect(text).toContain('GATE REQUIREMENTS (Phase: 01-requirements)');
  });
  it('an unknown workflow type: no overrides', () => expect(block(dir, '01-requirements', 'no-such-type')).toContain('  Workflow Overrides:\n    (none)'));
  it('a phase without modifiers: no overrides', () => expect(block(dir, '04-design', 'feature')).toContain('  Workflow Overrides:\n    (none)'));
  it("the workflow's requirement overrides apply too (fix: 01 without artifact validation)", () => {
    expect(block(dir, '01-requirements', 'fix')).toContain('- artifact_validation: disabled');
    expect(block(dir, '01-requirements', 'fix')).toContain('min_menu_interactions: 1');
  });
});

describe('what the block says', () => {
  const dir = initedProject('isdlc-block-');
  it('test_iteration enabled with all its parameters', () =>
    expect(block(dir, '06-implementation')).toContain('max_iterations: 10, circuit_breaker: 3, coverage: 80%'));
  it("independent review, where a phase has it, tells the phase's agent that its own article checks do not count", () => {
    expect(block(dir, '06-implementation')).toContain(
      'independent_review: only checks recorded by constitution-reviewer, after reading what the phase changed, count',
    );
    expect(block(dir, '01-requirements')).not.toContain('independent_review');
  });
  it('test_iteration disabled, without parameters', () =>
    expect(block(dir, '01-requirements')).toMatch(/- test_iteration: disabled\n {4}- constitutional_validation/));
  it('the five articles of phase 01 with titles', () => expect(block(dir, '01-requirements').match(/^ {4}- Article [IVX]+: /gm)).toHaveLength(5));
  it('the resolved artifact path of 03', () => expect(block(dir, '03-architecture')).toContain(`    - docs/requirements/${FOLDER}/architecture-overview.md`));
  it('a phase with nothing enabled still gives a whole block', () =>
    expect(block(dir, '00-quick-scan')).toBe(golden('00-quick-scan').replace(/\n {4}scope[\s\S]*$/, '\n    (none)')));
  it('fail-open is a zero-length string', () => {
    const result = block(dir, 'not-a-phase');
    expect(typeof result).toBe('string');
    expect(result).toHaveLength(0);
  });
});

describe('every error gives ""', () => {
  it.each([
    ['empty', ''],
    ['malformed', '{ "phase_requirements": '],
    ['not an object', '[1, 2]'],
    ['missing fields (no phase_requirements)', '{ "version": "2.1.0" }'],
  ])('an iteration-requirements file that is %s', (_name, text) => {
    const dir = initedProject('isdlc-nfr-');
    writeFile(join(dir, '.isdlc/config/iteration-requirements.json'), text);
    expect(block(dir, '06-implementation')).toBe('');
    expect(cli(['gate-requirements', '--phase', '06-implementation', '--artifact-folder', FOLDER, '--dir', dir]).stdout).toBe('');
  });
  it('an unreadable file (a folder in its place)', () => {
    const dir = initedProject('isdlc-nfr-');
    mkdirSync(join(dir, '.claude/hooks/config/iteration-requirements.json'), { recursive: true });
    expect(block(dir, '06-implementation')).toBe('');
  });
  it('a missing phase key, and missing input', () => {
    const dir = initedProject('isdlc-nfr-');
    expect(block(dir, '')).toBe('');
    expect(buildGateRequirementsBlock({ phaseKey: undefined as unknown as string, artifactFolder: FOLDER, projectRoot: dir, configDirs: CONFIG_DIRS })).toBe(
      '',
    );
    expect(
      buildGateRequirementsBlock({ phaseKey: '06-implementation', artifactFolder: null as unknown as string, projectRoot: dir, configDirs: CONFIG_DIRS }),
    ).toBe('');
  });
  it('a phase entry that is not an object', () => {
    const dir = withRequirements((r) => {
      r['phase_requirements']['06-implementation'] = 'see 05';
    });
    expect(block(dir, '06-implementation')).toBe('');
  });
  it('missing config: a folder that is not an isdlc project at all', () => {
    expect(block(tempDir('isdlc-nfr-'), '06-implementation')).toBe('');
  });
  it('no project file of its own: the bundled requirements apply, as they do for the guards', () => {
    const dir = tempDir('isdlc-nfr-');
    mkdirSync(join(dir, '.isdlc'));
    expect(block(dir, '06-implementation')).toContain('- test_iteration: enabled');
  });
});

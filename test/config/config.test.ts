// The bundled defaults agree with each other and hold the expected values; the resolver looks in one order.
import { CONFIG_DIRS } from '../../src/hosts/hook-hosts.js';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { resolveArtifactPath } from '../../src/config/artifacts.js';
import { configProblems, type ConfigSet } from '../../src/config/consistency.js';
import { describeArticle, parseConstitution } from '../../src/config/constitution.js';
import { bundledConfig, bundledConstitutionText, CONFIG_NAMES, loadConfig, loadConstitution, ProjectConfig } from '../../src/config/project-config.js';
import { effectivePhaseRequirements } from '../../src/config/requirements.js';
import { configSchemas } from '../../src/config/schemas.js';
import { tempDir, writeFile, writeJson } from '../helpers/project.js';

function bundledSet(): ConfigSet {
  return {
    requirements: structuredClone(bundledConfig('iteration-requirements')),
    artifactPaths: structuredClone(bundledConfig('artifact-paths')),
    workflows: structuredClone(bundledConfig('workflows')),
    manifest: structuredClone(bundledConfig('skills-manifest')),
    constitution: parseConstitution(bundledConstitutionText()),
  };
}

describe('bundled defaults', () => {
  it('each file passes its schema', () => {
    const { ArtifactPathsSchema, IterationRequirementsSchema, SkillsManifestSchema, WorkflowsSchema } = configSchemas();
    expect(v.safeParse(IterationRequirementsSchema, bundledConfig('iteration-requirements')).success).toBe(true);
    expect(v.safeParse(ArtifactPathsSchema, bundledConfig('artifact-paths')).success).toBe(true);
    expect(v.safeParse(WorkflowsSchema, bundledConfig('workflows')).success).toBe(true);
    expect(v.safeParse(SkillsManifestSchema, bundledConfig('skills-manifest')).success).toBe(true);
  });

  it('agree with each other: every phase, article and agent named anywhere exists', () => {
    expect(configProblems(bundledSet())).toEqual([]);
  });

  it('the constitution holds articles I–XIV with their titles', () => {
    const constitution = parseConstitution(bundledConstitutionText());
    expect([...constitution.articles]).toEqual([
      ['I', 'Specification Primacy'],
      ['II', 'Test-First Development'],
      ['III', 'Security by Design'],
      ['IV', 'Explicit Over Implicit'],
      ['V', 'Simplicity First'],
      ['VI', 'Code Review Required'],
      ['VII', 'Artifact Traceability'],
      ['VIII', 'Documentation Currency'],
      ['IX', 'Quality Gate Integrity'],
      ['X', 'Fail-Safe Defaults'],
      ['XI', 'Integration Testing Integrity'],
      ['XII', 'Cross-Platform Compatibility'],
      ['XIII', 'Module System Consistency'],
      ['XIV', 'State Management Integrity'],
    ]);
    expect(describeArticle(constitution, 'VII')).toBe('Article VII: Artifact Traceability');
    expect(describeArticle(constitution, 'XV')).toBe('Article XV (unknown)');
    expect(describeArticle(null, 'IV')).toBe('Article IV');
  });

  it('phase 06-implementation tests with 10 iterations, circuit breaker 3 and tiered coverage', () => {
    const test = effectivePhaseRequirements(bundledConfig('iteration-requirements'), '06-implementation')?.test_iteration;
    expect(test).toMatchObject({ enabled: true, max_iterations: 10, circuit_breaker_threshold: 3 });
    expect(test?.success_criteria?.min_coverage_percent).toEqual({ light: 60, standard: 80, epic: 95 });
  });

  it('phase 01-requirements requires articles I, IV, VII, IX, XII', () => {
    const requirements = effectivePhaseRequirements(bundledConfig('iteration-requirements'), '01-requirements');
    expect(requirements?.constitutional_validation?.articles).toEqual(['I', 'IV', 'VII', 'IX', 'XII']);
    expect(requirements?.test_iteration?.enabled).toBe(false);
  });

  it('merges workflow overrides over a phase (objects merged, lists replaced)', () => {
    const review = effectivePhaseRequirements(bundledConfig('iteration-requirements'), '08-code-review', 'fix');
    expect(review?.constitutional_validation).toEqual({ enabled: true, max_iterations: 5, articles: ['VI', 'IX'] });
    const plain = effectivePhaseRequirements(bundledConfig('iteration-requirements'), '08-code-review', 'upgrade');
    expect(plain?.constitutional_validation?.articles).toEqual(['V', 'VI', 'VII', 'VIII', 'IX']);
  });
});

describe('drift is caught', () => {
  it.each([
    [
      'a workflow naming a phase that does not exist',
      (set: ConfigSet) => {
        (set.workflows.workflows['feature'] as { phases: string[] }).phases.push('07-deploy-to-mars');
      },
      'workflow feature names unknown phase 07-deploy-to-mars',
    ],
    [
      'an override keyed by an old phase number',
      (set: ConfigSet) => {
        (set.requirements.workflow_overrides as Record<string, Record<string, unknown>>)['fix']!['05-implementation'] = { test_iteration: { enabled: false } };
      },
      'workflow_overrides.fix names unknown phase 05-implementation',
    ],
    [
      'an article the constitution lacks',
      (set: ConfigSet) => {
        set.constitution.articles.delete('XII');
      },
      'requires Article XII',
    ],
    [
      'a phase with no agent in the manifest',
      (set: ConfigSet) => {
        delete set.manifest.ownership['software-developer'];
      },
      'no agent in the skills manifest owns 06-implementation',
    ],
    [
      'artifact paths for an unknown phase',
      (set: ConfigSet) => {
        set.artifactPaths.phases['02-architecture'] = { paths: ['docs/x.md'] };
      },
      'artifact-paths names unknown phase 02-architecture',
    ],
    [
      'an override for a workflow type that does not exist',
      (set: ConfigSet) => {
        (set.requirements.workflow_overrides as Record<string, unknown>)['reverse-engineer'] = {};
      },
      'workflow type "reverse-engineer"',
    ],
  ])('%s', (_label, spoil, message) => {
    const set = bundledSet();
    spoil(set);
    expect(configProblems(set).join('\n')).toContain(message);
  });
});

describe('the config resolver', () => {
  const custom = (version: string) => ({ ...bundledConfig('artifact-paths'), version });

  it('uses the bundled default when the project has no file', () => {
    const root = tempDir();
    for (const name of CONFIG_NAMES) expect(loadConfig(root, name, CONFIG_DIRS).from).toBe('bundled');
  });

  it('takes .isdlc/config before .claude/hooks/config', () => {
    const root = tempDir();
    writeJson(join(root, '.claude/hooks/config/artifact-paths.json'), custom('legacy'));
    expect(loadConfig(root, 'artifact-paths', CONFIG_DIRS)).toMatchObject({
      from: join(root, '.claude/hooks/config/artifact-paths.json'),
      value: { version: 'legacy' },
    });
    writeJson(join(root, '.isdlc/config/artifact-paths.json'), custom('project'));
    expect(loadConfig(root, 'artifact-paths', CONFIG_DIRS).value.version).toBe('project');
  });

  it('falls back to the bundled default, with the reason, for a file that does not parse or fit', () => {
    const root = tempDir();
    writeFile(join(root, '.isdlc/config/workflows.json'), '{ "workflows": ');
    const broken = loadConfig(root, 'workflows', CONFIG_DIRS);
    expect(broken.from).toBe('bundled');
    expect(broken.problem).toContain('does not parse');
    writeJson(join(root, '.isdlc/config/workflows.json'), { workflows: { feature: { phases: 'all of them' } } });
    expect(loadConfig(root, 'workflows', CONFIG_DIRS).problem).toContain('workflows.feature.phases');
  });

  it('reads a YAML skills manifest', () => {
    const root = tempDir();
    writeFile(join(root, '.isdlc/config/skills-manifest.yaml'), 'version: "9"\nownership:\n  lone-agent:\n    agent_id: "01"\n    phase: 01-requirements\n');
    const loaded = loadConfig(root, 'skills-manifest', CONFIG_DIRS);
    expect(loaded.problem).toBeUndefined();
    expect(loaded.value.ownership['lone-agent']?.phase).toBe('01-requirements');
  });

  it('reads the constitution from docs/isdlc, then .isdlc, then the bundled one', () => {
    const root = tempDir();
    expect(loadConstitution(root).from).toBe('bundled');
    writeFile(join(root, '.isdlc/constitution.md'), '### Article I: Legacy Title\n');
    expect(loadConstitution(root).value.articles.get('I')).toBe('Legacy Title');
    writeFile(join(root, 'docs/isdlc/constitution.md'), '### Article I: Current Title\n');
    expect(loadConstitution(root).value.articles.get('I')).toBe('Current Title');
  });

  it('loads each file once per ProjectConfig, on first use', () => {
    const root = tempDir();
    const config = new ProjectConfig(root, CONFIG_DIRS);
    const first = config.manifest;
    writeJson(join(root, '.isdlc/config/skills-manifest.json'), { ownership: {} });
    expect(config.manifest).toBe(first);
    expect(new ProjectConfig(root, CONFIG_DIRS).manifest.ownership).toEqual({});
  });
});

describe('artifact paths', () => {
  it.each([
    ['docs/requirements/{artifact_folder}/requirements-spec.md', 'REQ-0024-gate', 'docs/requirements/REQ-0024-gate/requirements-spec.md'],
    ['docs/fixed.md', 'REQ-1', 'docs/fixed.md'],
    ['docs/{unknown}/x.md', 'REQ-1', 'docs/{unknown}/x.md'],
    ['docs/requirements/{artifact_folder}/x.md', '../../etc', null],
    ['docs/requirements/{artifact_folder}/x.md', 'a/b', null],
    ['docs/requirements/{artifact_folder}/x.md', '', null],
  ])('%s with %j → %j', (template, folder, resolved) => expect(resolveArtifactPath(template, folder)).toBe(resolved));
});

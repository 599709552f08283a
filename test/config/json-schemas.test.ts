// The JSON Schemas the package ships for the config files a person edits: made from the schemas isdlc
// checks the files with, they accept every default isdlc ships and refuse a wrong value with the sentence
// isdlc itself prints (read by Ajv with ajv-errors, as an editor's validator would read them).
import { Ajv, type ErrorObject } from 'ajv';
import ajvErrors from 'ajv-errors';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchemas } from '../../src/config/json-schemas.js';
import { bundledConfig, CONFIG_NAMES } from '../../src/config/project-config.js';
import { checkConfigFile, checkTestingFile, type SchemaName } from '../../src/config/schemas.js';
import { DEFAULT_TIMEOUT_MINUTES } from '../../src/config/testing-config.js';
import { cli, REPO, readJson, tempDir } from '../helpers/project.js';

const SHIPPED = join(REPO, 'dist', 'schemas');
const NAMES = [...CONFIG_NAMES, 'testing'] as const;
const SCHEMA_OF: Record<string, SchemaName> = {
  'iteration-requirements': 'IterationRequirementsSchema',
  'artifact-paths': 'ArtifactPathsSchema',
  workflows: 'WorkflowsSchema',
  'skills-manifest': 'SkillsManifestSchema',
};

function validator(name: string) {
  const ajv = new Ajv({ allErrors: true });
  ajvErrors(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(SHIPPED, `${name}.json`), 'utf8')) as object);
}

/** Ajv's verdict as isdlc words one: the deepest error (the last of equally deep ones), as `where: what`. */
function ajvProblem(errors: ErrorObject[]): string {
  let best = errors[0]!;
  for (const error of errors) if (error.instancePath.split('/').length >= best.instancePath.split('/').length) best = error;
  const path = best.instancePath.split('/').filter(Boolean).join('.');
  return path ? `${path}: ${best.message}` : String(best.message);
}

/** isdlc's verdict on the same content. */
function isdlcProblem(name: string, value: unknown): string | undefined {
  const checked = name === 'testing' ? checkTestingFile(value, DEFAULT_TIMEOUT_MINUTES) : checkConfigFile(SCHEMA_OF[name]!, value);
  return checked.ok ? undefined : checked.problem;
}

const WRONG: Record<(typeof NAMES)[number], unknown> = {
  'iteration-requirements': { phase_requirements: 'all of them' },
  'artifact-paths': { phases: { '01-requirements': { paths: 'docs/requirements.md' } } },
  workflows: { workflows: { feature: { phases: '01-requirements' } } },
  'skills-manifest': { ownership: { 'requirements-analyst': { phase: 1 } } },
  testing: { command: 'npm test', timeout_minutes: 'ten' },
};

describe('the config files’ JSON Schemas', () => {
  it('are the ones the current schemas make, one per file a person edits', () => {
    const made = configJsonSchemas();
    expect(Object.keys(made).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(readJson(join(SHIPPED, `${name}.json`)), name).toEqual(made[name]);
  });

  it.each(CONFIG_NAMES)('%s: accept the default isdlc ships, with the $schema a copy of it names', (name) => {
    const validate = validator(name);
    expect(validate(bundledConfig(name)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ $schema: `./schemas/${name}.json`, ...bundledConfig(name) })).toBe(true);
  });

  it.each(NAMES)('%s: refuse a wrong value with the sentence isdlc prints for it', (name) => {
    const validate = validator(name);
    expect(validate(WRONG[name])).toBe(false);
    const expected = isdlcProblem(name, WRONG[name]);
    expect(expected).toBeDefined();
    expect(ajvProblem(validate.errors!)).toBe(expected);
  });

  it.each([
    ['workflows', { workflows: ['01-requirements'] }],
    ['iteration-requirements', { phase_requirements: [] }],
    ['artifact-paths', { phases: { '01-requirements': [] } }],
  ])('%s: a list where an object belongs is refused by both, with the same sentence', (name, value) => {
    const validate = validator(name);
    expect(validate(value)).toBe(false);
    const expected = isdlcProblem(name, value);
    expect(expected).toMatch(/must be an object/);
    expect(ajvProblem(validate.errors!)).toBe(expected);
  });

  it('are put in the project by init, and the testing.json init writes names its own and passes it', () => {
    const dir = tempDir();
    expect(cli(['init', dir]).status).toBe(0);
    for (const name of NAMES) expect(existsSync(join(dir, '.isdlc/config/schemas', `${name}.json`)), name).toBe(true);
    const testing = readJson<{ $schema: string }>(join(dir, '.isdlc/config/testing.json'));
    expect(testing.$schema).toBe('./schemas/testing.json');
    expect(existsSync(join(dir, '.isdlc/config', testing.$schema))).toBe(true);
    const validate = validator('testing');
    expect(validate(testing), JSON.stringify(validate.errors)).toBe(true);
    expect(isdlcProblem('testing', testing)).toBeUndefined();
    // What `config show` prints, saved as an override, names its schema too and still loads.
    const shown = JSON.parse(cli(['config', 'show', 'workflows', '--bundled', '--dir', dir]).stdout) as { $schema: string };
    expect(shown.$schema).toBe('./schemas/workflows.json');
    expect(validator('workflows')(shown)).toBe(true);
    expect(isdlcProblem('workflows', shown)).toBeUndefined();
  });
});

// The shapes of the config files, checked when a project's own file is read. Loose objects: fields we
// do not know are kept, so a project's own additions survive. Built on first use: a hook call that only
// meets the bundled defaults (trusted, checked by a test) never builds them, and in a build this module
// and the schema library are a file of their own (dist/schemas.cjs), loaded only then (load-schemas.ts).
import * as v from 'valibot';

/**
 * What isdlc says of a wrong value, one sentence per kind of value. The JSON Schemas built from these
 * schemas (scripts/build.mjs) carry the same sentences as their `errorMessage`, so a validator in the
 * person's editor and isdlc say the same thing.
 */
export const MUST = {
  text: 'must be a string',
  flag: 'must be true or false',
  number: 'must be a number',
  whole: 'must be a whole number',
  notNegative: 'must be 0 or more',
  percent: 'must be a percentage from 0 to 100',
  list: 'must be a list',
  object: 'must be an object',
  textOrList: 'must be a string or a list of strings',
  textOrNumber: 'must be a string or a number',
  commentOrObject: 'must be an object (or a string, as a comment)',
  percentOrMap: 'must be a percentage, or an object of percentages by name',
} as const;

const text = () => v.string(MUST.text);
const texts = () => v.array(text(), MUST.list);
/**
 * For the JSON Schema build (json-schemas.ts): the schema each plainObject() wrapper checks, keyed by the
 * wrapper's first item (the converter sees that one and would stop there).
 */
export const PLAIN_OBJECT_INNER = new WeakMap<object, v.GenericSchema>();

/**
 * valibot's object schemas take a list for an object (`["a"]` as `{"0": "a"}`); in a config file an
 * object never is a list, and the JSON Schema (`"type": "object"`) says so too.
 */
function plainObject<T extends v.GenericSchema>(schema: T) {
  const head = v.unknown();
  PLAIN_OBJECT_INNER.set(head, schema);
  return v.pipe(
    head,
    v.check((input) => !Array.isArray(input), MUST.object),
    schema,
  );
}

const object = <T extends v.ObjectEntries>(entries: T) => plainObject(v.looseObject(entries, MUST.object));
const recordOf = <T extends v.GenericSchema>(value: T) => plainObject(v.record(v.string(), value, MUST.object));

function buildConfigSchemas() {
  const flag = v.optional(v.boolean(MUST.flag));
  const count = v.optional(v.pipe(v.number(MUST.whole), v.integer(MUST.whole), v.minValue(0, MUST.notNegative)));
  const percent = v.pipe(v.number(MUST.number), v.minValue(0, MUST.percent), v.maxValue(100, MUST.percent));

  const TestIterationConfigSchema = object({
    enabled: flag,
    max_iterations: count,
    circuit_breaker_threshold: count,
    test_commands: v.optional(texts()),
    verify_at_gate: flag,
    success_criteria: v.optional(
      object({
        min_coverage_percent: v.optional(v.nullable(v.union([percent, recordOf(percent)], MUST.percentOrMap))),
        /** The share of mutants on the workflow's changed lines the tests must catch (verify/mutation-evidence.ts). */
        min_mutation_score: v.optional(v.nullable(v.union([percent, recordOf(percent)], MUST.percentOrMap))),
      }),
    ),
  });

  const ConstitutionalConfigSchema = object({
    enabled: flag,
    max_iterations: count,
    articles: v.optional(texts()),
    /** Count only checks recorded by a reviewer that is not the phase's worker and read what the phase changed (gates/article-recorders.ts). */
    independent_review: flag,
    /** The agents whose checks count as that review; unset: every agent the manifest names but the worker. */
    reviewers: v.optional(texts()),
  });

  const ElicitationConfigSchema = object({
    enabled: flag,
    min_menu_interactions: count,
    required_final_selection: v.optional(texts()),
  });

  const Toggle = object({ enabled: flag });

  const PhaseRequirementsSchema = object({
    test_iteration: v.optional(TestIterationConfigSchema),
    constitutional_validation: v.optional(ConstitutionalConfigSchema),
    interactive_elicitation: v.optional(ElicitationConfigSchema),
    agent_delegation_validation: v.optional(Toggle),
    artifact_validation: v.optional(object({ enabled: flag, paths: v.optional(texts()) })),
    atdd_validation: v.optional(Toggle),
  });

  /** Keys that start with `_` are comments in these files. */
  const commentOr = <T extends v.GenericSchema>(schema: T) => v.union([v.string(), schema], MUST.commentOrObject);

  const IterationRequirementsSchema = object({
    version: v.optional(text()),
    phase_requirements: recordOf(commentOr(PhaseRequirementsSchema)),
    workflow_overrides: v.optional(recordOf(commentOr(recordOf(commentOr(recordOf(v.unknown())))))),
  });

  const ArtifactPathsSchema = object({
    version: v.optional(text()),
    phases: recordOf(commentOr(object({ paths: texts() }))),
  });

  const WorkflowSchema = object({
    label: v.optional(text()),
    description: v.optional(text()),
    phases: texts(),
    agent_modifiers: v.optional(recordOf(v.unknown())),
    requires_branch: flag,
  });

  const WorkflowsSchema = object({
    version: v.optional(text()),
    workflows: recordOf(commentOr(WorkflowSchema)),
  });

  const SkillsManifestSchema = object({
    version: v.optional(text()),
    ownership: recordOf(
      object({
        agent_id: v.optional(v.union([v.string(), v.number()], MUST.textOrNumber)),
        phase: v.union([v.string(), v.array(v.string())], MUST.textOrList),
        skills: v.optional(v.array(v.unknown(), MUST.list)),
      }),
    ),
    skill_lookup: v.optional(recordOf(text())),
  });
  return {
    PhaseRequirementsSchema,
    IterationRequirementsSchema,
    ArtifactPathsSchema,
    WorkflowSchema,
    WorkflowsSchema,
    SkillsManifestSchema,
  };
}

type ConfigSchemas = ReturnType<typeof buildConfigSchemas>;
let built: ConfigSchemas | undefined;

export function configSchemas(): ConfigSchemas {
  built ??= buildConfigSchemas();
  return built;
}

export type PhaseRequirements = v.InferOutput<ConfigSchemas['PhaseRequirementsSchema']>;
export type IterationRequirements = v.InferOutput<ConfigSchemas['IterationRequirementsSchema']>;
export type ArtifactPaths = v.InferOutput<ConfigSchemas['ArtifactPathsSchema']>;
export type Workflow = v.InferOutput<ConfigSchemas['WorkflowSchema']>;
export type Workflows = v.InferOutput<ConfigSchemas['WorkflowsSchema']>;
export type SkillsManifest = v.InferOutput<ConfigSchemas['SkillsManifestSchema']>;

/**
 * The deepest problem under an issue: inside a union, the branch that got furthest (valibot gives the
 * paths of a union's inner issues relative to the union).
 */
function deepest(issue: v.BaseIssue<unknown>, prefix: string[]): { path: string[]; message: string } {
  const path = [...prefix, ...(issue.path ?? []).map((item) => String(item.key))];
  let best = { path, message: issue.message };
  for (const inner of issue.issues ?? []) {
    const candidate = deepest(inner, path);
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

/** The first problem valibot found, as `where: what`. */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (!first) return 'invalid';
  const { path, message } = deepest(first, []);
  return path.length > 0 ? `${path.join('.')}: ${message}` : message;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export type SchemaName = keyof ConfigSchemas;

/** A config file's content against its schema: the checked value (defaults filled in), or the first problem. */
export function checkConfigFile(schema: SchemaName, value: unknown): Checked<unknown> {
  const checked = v.safeParse(configSchemas()[schema], value);
  return checked.success ? { ok: true, value: checked.output } : { ok: false, problem: describeIssue(checked.issues) };
}

function testingSchema(defaultTimeoutMinutes: number) {
  return object({
    command: v.nullable(v.pipe(text(), v.trim(), v.minLength(1, 'must not be empty (use null for none)'))),
    coverage_command: v.optional(v.pipe(text(), v.trim(), v.minLength(1, 'must not be empty'))),
    coverage_report: v.optional(v.pipe(text(), v.minLength(1, 'must not be empty'))),
    timeout_minutes: v.optional(
      v.pipe(v.number(MUST.number), v.minValue(0.01, 'must be more than 0 minutes'), v.maxValue(24 * 60, 'must be at most a day (1440 minutes)')),
      defaultTimeoutMinutes,
    ),
    require_counts: v.optional(v.boolean(MUST.flag), true),
    definition_files: v.optional(texts()),
    mutation_command: v.optional(v.pipe(text(), v.trim(), v.minLength(1, 'must not be empty'))),
    mutation_report: v.optional(v.pipe(text(), v.minLength(1, 'must not be empty'))),
    mutation_timeout_minutes: v.optional(
      v.pipe(v.number(MUST.number), v.minValue(0.01, 'must be more than 0 minutes'), v.maxValue(24 * 60, 'must be at most a day (1440 minutes)')),
    ),
    mutation_recheck: v.optional(v.boolean(MUST.flag)),
  });
}

export type TestingFile = v.InferOutput<ReturnType<typeof testingSchema>>;

/**
 * The schemas of the config files a person edits, by file name, for the JSON Schemas the build writes
 * (`testing.json`'s default timeout is the one isdlc uses).
 */
export function editableConfigSchemas(defaultTimeoutMinutes: number): Record<string, v.GenericSchema> {
  const schemas = configSchemas();
  return {
    'iteration-requirements': schemas.IterationRequirementsSchema,
    'artifact-paths': schemas.ArtifactPathsSchema,
    workflows: schemas.WorkflowsSchema,
    'skills-manifest': schemas.SkillsManifestSchema,
    testing: testingSchema(defaultTimeoutMinutes),
  };
}

/** `.isdlc/config/testing.json` against its schema (src/config/testing-config.ts). */
export function checkTestingFile(value: unknown, defaultTimeoutMinutes: number): Checked<TestingFile> {
  const checked = v.safeParse(testingSchema(defaultTimeoutMinutes), value);
  return checked.success ? { ok: true, value: checked.output } : { ok: false, problem: describeIssue(checked.issues) };
}

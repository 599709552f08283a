// The shapes of the config files, checked when a project's own file is read. Loose objects: fields we
// do not know are kept, so a project's own additions survive. Built on first use: a hook call that only
// meets the bundled defaults (trusted, checked by a test) never builds them, and in a build this module
// and the schema library are a file of their own (dist/schemas.cjs), loaded only then (load-schemas.ts).
import * as v from 'valibot';

function buildConfigSchemas() {
  const flag = v.optional(v.boolean());
  const count = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)));
  const percent = v.pipe(v.number(), v.minValue(0), v.maxValue(100));

  const TestIterationConfigSchema = v.looseObject({
    enabled: flag,
    max_iterations: count,
    circuit_breaker_threshold: count,
    test_commands: v.optional(v.array(v.string())),
    verify_at_gate: flag,
    success_criteria: v.optional(
      v.looseObject({
        min_coverage_percent: v.optional(v.nullable(v.union([percent, v.record(v.string(), percent)]))),
      }),
    ),
  });

  const ConstitutionalConfigSchema = v.looseObject({
    enabled: flag,
    max_iterations: count,
    articles: v.optional(v.array(v.string())),
    /** Count only checks recorded by an agent other than the phase's worker (gates/article-recorders.ts). */
    independent_review: flag,
  });

  const ElicitationConfigSchema = v.looseObject({
    enabled: flag,
    min_menu_interactions: count,
    required_final_selection: v.optional(v.array(v.string())),
  });

  const Toggle = v.looseObject({ enabled: flag });

  const PhaseRequirementsSchema = v.looseObject({
    test_iteration: v.optional(TestIterationConfigSchema),
    constitutional_validation: v.optional(ConstitutionalConfigSchema),
    interactive_elicitation: v.optional(ElicitationConfigSchema),
    agent_delegation_validation: v.optional(Toggle),
    artifact_validation: v.optional(v.looseObject({ enabled: flag, paths: v.optional(v.array(v.string())) })),
    atdd_validation: v.optional(Toggle),
  });

  /** Keys that start with `_` are comments in these files. */
  const commentOr = <T extends v.GenericSchema>(schema: T) => v.union([v.string(), schema]);

  const IterationRequirementsSchema = v.looseObject({
    version: v.optional(v.string()),
    phase_requirements: v.record(v.string(), commentOr(PhaseRequirementsSchema)),
    workflow_overrides: v.optional(v.record(v.string(), commentOr(v.record(v.string(), commentOr(v.record(v.string(), v.unknown())))))),
  });

  const ArtifactPathsSchema = v.looseObject({
    version: v.optional(v.string()),
    phases: v.record(v.string(), commentOr(v.looseObject({ paths: v.array(v.string()) }))),
  });

  const WorkflowSchema = v.looseObject({
    label: v.optional(v.string()),
    description: v.optional(v.string()),
    phases: v.array(v.string()),
    agent_modifiers: v.optional(v.record(v.string(), v.unknown())),
    requires_branch: flag,
  });

  const WorkflowsSchema = v.looseObject({
    version: v.optional(v.string()),
    workflows: v.record(v.string(), commentOr(WorkflowSchema)),
  });

  const SkillsManifestSchema = v.looseObject({
    version: v.optional(v.string()),
    ownership: v.record(
      v.string(),
      v.looseObject({
        agent_id: v.optional(v.union([v.string(), v.number()])),
        phase: v.union([v.string(), v.array(v.string())]),
        skills: v.optional(v.array(v.unknown())),
      }),
    ),
    skill_lookup: v.optional(v.record(v.string(), v.string())),
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
  return v.looseObject({
    command: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty (use null for none)'))),
    coverage_command: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
    coverage_report: v.optional(v.pipe(v.string(), v.minLength(1))),
    timeout_minutes: v.optional(v.pipe(v.number(), v.minValue(0.01), v.maxValue(24 * 60)), defaultTimeoutMinutes),
    require_counts: v.optional(v.boolean(), true),
    definition_files: v.optional(v.array(v.string())),
  });
}

export type TestingFile = v.InferOutput<ReturnType<typeof testingSchema>>;

/** `.isdlc/config/testing.json` against its schema (src/config/testing-config.ts). */
export function checkTestingFile(value: unknown, defaultTimeoutMinutes: number): Checked<TestingFile> {
  const checked = v.safeParse(testingSchema(defaultTimeoutMinutes), value);
  return checked.success ? { ok: true, value: checked.output } : { ok: false, problem: describeIssue(checked.issues) };
}

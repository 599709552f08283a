// Rules as agents and people write them (a well-known name, the nested `{ type, name, config: {...} }`, or
// flat fields in camelCase or snake_case) turned into the engine's `Rule` with every default applied. The
// defaults live here and only here: a rule the engine runs never has a field left to guess.
import * as v from 'valibot';
import { describeCommand, describePattern } from './describe.js';
import type { Rule, RuleType } from './types.js';
import { isRecord, asText } from '../util/json.js';

/** Names that stand for a whole rule. */
export const WELL_KNOWN_RULES: Readonly<Record<string, string>> = {
  tests_pass: 'npm test',
  compiles: 'npx tsc --noEmit',
  lint_clean: 'npm run lint',
};

/** Other spellings of a field, mapped to the one the engine uses. */
const ALIASES: Readonly<Record<string, string>> = {
  expected_exit_code: 'expectedExitCode',
  timeout_seconds: 'timeoutSeconds',
  timeout: 'timeoutSeconds',
  must_match: 'mustMatch',
  min_coverage: 'minCoverage',
  must_exist: 'mustExist',
};

const RULE_TYPES: readonly RuleType[] = ['command', 'content_pattern', 'coverage', 'file_exists'];
const REGEX_FLAGS = 'imsu';

type Fields = Record<string, unknown>;

const isFields: (value: unknown) => value is Fields = isRecord;

const knownNames = () => Object.keys(WELL_KNOWN_RULES).join(', ');

const pathItem = (input: Fields, key: string): v.ObjectPathItem => ({
  type: 'object',
  origin: 'value',
  input,
  key,
  value: input[key],
});

// ---------------------------------------------------------------------------------------------------------
// Step 1: any accepted spelling → one flat object with the engine's field names.

const toFields = v.rawTransform<unknown, Fields>(({ dataset, addIssue, NEVER }) => {
  const input = dataset.value;
  if (typeof input === 'string') {
    const name = input.trim();
    const command = WELL_KNOWN_RULES[name];
    if (command === undefined || !Object.hasOwn(WELL_KNOWN_RULES, name)) {
      addIssue({
        message: `unknown rule name ${JSON.stringify(input)}: the well-known names are ${knownNames()}; any other rule is an object with a "type"`,
      });
      return NEVER;
    }
    return { type: 'command', name, command };
  }
  if (!isFields(input)) {
    addIssue({ message: `a rule is a well-known name (${knownNames()}) or an object with a "type"` });
    return NEVER;
  }

  let ok = true;
  const canonical = (level: Fields, outer?: v.ObjectPathItem): Fields => {
    const out: Fields = {};
    const from: Record<string, string> = {};
    for (const [key, value] of Object.entries(level)) {
      if (!outer && key === 'config') continue;
      const field = ALIASES[key] ?? key;
      const earlier = from[field];
      if (earlier !== undefined && out[field] !== value) {
        ok = false;
        const item = pathItem(level, key);
        addIssue({
          message: `given twice, as "${earlier}" and as "${key}": keep one`,
          path: outer ? [outer, item] : [item],
        });
      }
      out[field] = value;
      from[field] = key;
    }
    return out;
  };

  const top = canonical(input);
  const config = input.config;
  if (config !== undefined && !isFields(config)) {
    addIssue({ message: 'must be an object of rule settings', path: [pathItem(input, 'config')] });
    return NEVER;
  }
  const merged = config === undefined ? top : { ...top, ...canonical(config, pathItem(input, 'config')) };
  return ok ? merged : NEVER;
});

// ---------------------------------------------------------------------------------------------------------
// Step 2: each rule type's fields, checked, with their defaults.

/** What a field must hold, for the message. */
const NEEDS: Readonly<Record<string, string>> = {
  name: 'a non-empty name of at most 120 characters',
  enabled: 'true or false',
  command: 'a command line (string) or a non-empty list of strings (program, then arguments)',
  expectedExitCode: 'a whole number from 0 to 255',
  timeoutSeconds: 'a number of seconds from 1 to 3600',
  cwd: 'a directory relative to the project root',
  pattern: 'a regular expression (string)',
  flags: `regular expression flags, each of ${REGEX_FLAGS.split('').join(', ')} at most once`,
  target: '"agent_output" or a file path relative to the project root',
  mustMatch: 'true or false',
  minCoverage: 'a percentage from 0 to 100',
  report: 'a coverage report path relative to the project root',
  path: 'a path relative to the project root',
  mustExist: 'true or false',
};

/** A value as a message shows it. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

const must =
  (field: string) =>
  (issue: v.BaseIssue<unknown>): string =>
    issue.input === undefined ? `is required: ${NEEDS[field]}` : `must be ${NEEDS[field]}, got ${shown(issue.input)}`;

const text = (field: string) => v.pipe(v.string(must(field)), v.trim(), v.nonEmpty(must(field)));
const flag = (field: string, fallback: boolean) => v.optional(v.boolean(must(field)), fallback);

const ruleObject = <const E extends v.ObjectEntries>(type: RuleType, entries: E) =>
  v.strictObject(entries, (issue) => {
    const key = asText(issue.path?.at(-1)?.key);
    if (issue.expected === 'never') {
      return `unknown field for a ${type} rule (its fields: ${Object.keys(entries).join(', ')})`;
    }
    return `is required: ${NEEDS[key] ?? 'a value'}`;
  });

const common = {
  name: v.optional(v.pipe(text('name'), v.maxLength(120, must('name')))),
  enabled: flag('enabled', true),
};

const CommandFields = ruleObject('command', {
  type: v.literal('command'),
  ...common,
  command: v.pipe(
    v.custom<string | unknown[]>((value) => typeof value === 'string' || Array.isArray(value), must('command')),
    v.rawTransform<string | unknown[], string | string[]>(({ dataset, addIssue, NEVER }) => {
      const command = dataset.value;
      if (typeof command === 'string') {
        if (command.trim() !== '') return command.trim();
        addIssue({ message: `must be ${NEEDS.command}, got ${shown(command)}` });
        return NEVER;
      }
      const odd = command.findIndex((arg) => typeof arg !== 'string');
      if (command.length === 0) addIssue({ message: `must be ${NEEDS.command}, got an empty list` });
      else if (odd >= 0) addIssue({ message: `must be a list of strings, got ${shown(command[odd])} at position ${odd}` });
      else if ((command[0] as string).trim() === '') {
        addIssue({ message: 'must start with the program to run, got an empty first element' });
      } else return command as string[];
      return NEVER;
    }),
  ),
  expectedExitCode: v.optional(
    v.pipe(
      v.number(must('expectedExitCode')),
      v.integer(must('expectedExitCode')),
      v.minValue(0, must('expectedExitCode')),
      v.maxValue(255, must('expectedExitCode')),
    ),
    0,
  ),
  timeoutSeconds: v.optional(v.pipe(v.number(must('timeoutSeconds')), v.minValue(1, must('timeoutSeconds')), v.maxValue(3600, must('timeoutSeconds'))), 300),
  cwd: v.optional(text('cwd')),
});

const ContentPatternFields = v.pipe(
  ruleObject('content_pattern', {
    type: v.literal('content_pattern'),
    ...common,
    pattern: v.pipe(v.string(must('pattern')), v.nonEmpty(must('pattern'))),
    flags: v.optional(
      v.pipe(
        v.string(must('flags')),
        v.regex(/^[imsu]*$/, must('flags')),
        v.check((flags) => new Set(flags).size === flags.length, must('flags')),
      ),
      '',
    ),
    target: v.optional(text('target'), 'agent_output'),
    mustMatch: flag('mustMatch', true),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { pattern, flags } = dataset.value;
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      addIssue({
        message: `does not compile: ${(error as Error).message}`,
        path: [pathItem(dataset.value, 'pattern')],
      });
    }
  }),
);

const CoverageFields = ruleObject('coverage', {
  type: v.literal('coverage'),
  ...common,
  minCoverage: v.pipe(v.number(must('minCoverage')), v.minValue(0, must('minCoverage')), v.maxValue(100, must('minCoverage'))),
  report: v.optional(text('report')),
});

const FileExistsFields = ruleObject('file_exists', {
  type: v.literal('file_exists'),
  ...common,
  path: text('path'),
  mustExist: flag('mustExist', true),
});

/** A rule with every default applied except, possibly, its name. */
export const UnnamedRuleSchema = v.pipe(
  v.unknown(),
  toFields,
  v.variant('type', [CommandFields, ContentPatternFields, CoverageFields, FileExistsFields], (issue) =>
    issue.input === undefined ? `is required: one of ${RULE_TYPES.join(', ')}` : `must be one of ${RULE_TYPES.join(', ')}, got ${issue.received}`,
  ),
);

type UnnamedRule = v.InferOutput<typeof UnnamedRuleSchema>;

// ---------------------------------------------------------------------------------------------------------
// Step 3: a readable name when none was given.

/** The name a rule gets when it has none: what it checks, in a few words. */
export function defaultRuleName(rule: UnnamedRule): string {
  switch (rule.type) {
    case 'command':
      return describeCommand(rule.command, 80);
    case 'content_pattern':
      return `${rule.mustMatch ? '' : 'no '}${describePattern(rule.pattern, rule.flags, 60)} in ${rule.target}`;
    case 'coverage':
      return rule.report === undefined ? 'coverage' : `coverage of ${rule.report}`;
    case 'file_exists':
      return `${rule.path} ${rule.mustExist ? 'exists' : 'absent'}`;
  }
}

const named = (rule: UnnamedRule): Rule => ({ ...rule, name: rule.name ?? defaultRuleName(rule) });

/** The one schema: rule input as written → the `Rule` the engine runs. */
export const RuleSchema = v.pipe(UnnamedRuleSchema, v.transform(named));

// ---------------------------------------------------------------------------------------------------------
// Parsing with messages that say which rule and which field.

/** Where a field of the engine's spelling was written in the input (`config.timeout`, `must_match`, ...). */
function writtenAs(input: unknown, field: string): string {
  if (!isFields(input)) return field;
  const spellings = [field, ...Object.keys(ALIASES).filter((alias) => ALIASES[alias] === field)];
  for (const [level, prefix] of [
    [input.config, 'config.'],
    [input, ''],
  ] as const) {
    if (!isFields(level)) continue;
    const found = spellings.find((spelling) => Object.hasOwn(level, spelling));
    if (found !== undefined) return prefix + found;
  }
  return field;
}

function describeIssues(input: unknown, issues: readonly v.BaseIssue<unknown>[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    const dotPath = v.getDotPath(issue);
    let where = '';
    if (dotPath !== null) {
      const [first = '', ...rest] = dotPath.split('.');
      where = [writtenAs(input, first), ...rest].join('.');
    }
    const part = where ? `${where}: ${issue.message}` : issue.message;
    if (seen.has(part)) continue;
    seen.add(part);
    parts.push(part);
  }
  return parts.slice(0, 3).join('; ') + (parts.length > 3 ? `; and ${parts.length - 3} more` : '');
}

function labelOf(input: unknown): string {
  if (typeof input === 'string') return ` (${JSON.stringify(input)})`;
  if (!isFields(input)) return '';
  const name = isFields(input.config) && typeof input.config.name === 'string' ? input.config.name : input.name;
  return typeof name === 'string' && name.trim() !== '' ? ` (${JSON.stringify(name.trim())})` : '';
}

function parseUnnamed(input: unknown, where: string): UnnamedRule {
  const result = v.safeParse(UnnamedRuleSchema, input);
  if (!result.success) throw new Error(`${where}${labelOf(input)}: ${describeIssues(input, result.issues)}`);
  return result.output;
}

/** One rule, as written, with every default applied; throws an Error that names the bad field. */
export function parseRule(input: unknown): Rule {
  return named(parseUnnamed(input, 'rule'));
}

/**
 * A list of rules. Names end up unique: a name given twice is an error; a name made up for a rule without
 * one gets ` #2`, ` #3`, ... when taken.
 */
export function parseRules(input: unknown): Rule[] {
  if (!Array.isArray(input)) {
    throw new Error(`rules must be a list, got ${input === null ? 'null' : typeof input}`);
  }
  const unnamed = input.map((item, index) => parseUnnamed(item, `rules[${index}]`));

  const owner = new Map<string, number>();
  unnamed.forEach((rule, index) => {
    if (rule.name === undefined) return;
    const earlier = owner.get(rule.name);
    if (earlier !== undefined) {
      throw new Error(`rules[${index}] (${JSON.stringify(rule.name)}): name: already used by rules[${earlier}]; every rule needs its own name`);
    }
    owner.set(rule.name, index);
  });

  return unnamed.map((rule, index) => {
    if (rule.name !== undefined) return rule as Rule;
    const base = defaultRuleName(rule);
    let name = base;
    for (let n = 2; owner.has(name); n++) name = `${base} #${n}`;
    owner.set(name, index);
    return { ...rule, name };
  });
}

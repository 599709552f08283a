// Never deny harmless work: the everyday tool calls of test/fixtures/everyday, played through
// the hooks `isdlc init` registered, in the order Claude Code calls them (PreToolUse, then PostToolUse with
// the tool's result; UserPromptSubmit for a typed prompt) and answered by the built CLI in this process
// (test/hook/registered-hook.test.ts runs the registered process itself), in a Node, a Python, a Go and a Rust project,
// outside a workflow and in every phase the bundled workflows use. Not one may be denied, blocked or
// turned into a question.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import skillsManifest from '../../src/config/defaults/skills-manifest.json';
import workflows from '../../src/config/defaults/workflows.json';
import { phaseAgent } from '../../src/config/agents.js';
import type { SkillsManifest } from '../../src/config/schemas.js';
import { agentResult, bashPassed, userPrompt } from '../helpers/payloads.js';
import { cli, FIXTURES, git, tempDir, writeFile, writeJson, writePlan, type Run } from '../helpers/project.js';
import { answerAsRegistered, registeredCommands } from '../helpers/registered-hook.js';
import { testRecord, withTests, workflowState } from '../helpers/states.js';

type Json = Record<string, unknown>;
type Language = 'node' | 'python' | 'go' | 'rust';
const LANGUAGES: Language[] = ['node', 'python', 'go', 'rust'];

interface Entry {
  tool: string;
  input: Json;
  stdout?: string;
  where?: 'workflow' | 'outside' | 'every-phase' | 'failing';
}

const corpus = (name: string): Entry[] => JSON.parse(readFileSync(join(FIXTURES, 'everyday', `${name}.json`), 'utf8')) as Entry[];

/** Every phase of the bundled workflows, each with the first workflow that has it. */
const PHASES: { phase: string; type: string }[] = [];
for (const [type, workflow] of Object.entries(workflows.workflows as Record<string, { phases: string[] }>)) {
  for (const phase of workflow.phases) if (!PHASES.some((p) => p.phase === phase)) PHASES.push({ phase, type });
}

/** Where a call is played: no workflow, a phase of one, or 06-implementation with its tests failing. */
type Place = { kind: 'outside' } | { kind: 'phase'; phase: string; type: string } | { kind: 'failing'; phase: string; type: string };
const PLACES: Place[] = [
  { kind: 'outside' },
  ...PHASES.map((p) => ({ kind: 'phase' as const, ...p })),
  { kind: 'failing', phase: '06-implementation', type: 'feature' },
];
const placeName = (place: Place): string =>
  place.kind === 'outside' ? 'outside a workflow' : place.kind === 'failing' ? `${place.phase}, tests failing` : `${place.phase} (${place.type})`;

const PROJECT_FILES: Record<Language, Record<string, string>> = {
  node: {
    'package.json': '{\n  "name": "shop",\n  "type": "module",\n  "scripts": {\n    "test": "node --test"\n  }\n}\n',
    'src/cart.js': 'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n',
    'test/cart.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport { total } from '../src/cart.js';\n\ntest('total', () => assert.equal(total([{ price: 2, qty: 3 }]), 6));\n",
  },
  python: {
    'pyproject.toml': '[project]\nname = "shop"\n',
    'src/shop/cart.py': 'def total(items):\n    return sum(price * qty for price, qty in items)\n',
    'tests/test_cart.py': 'from shop.cart import total\n\n\ndef test_total():\n    assert total([(2, 3)]) == 6\n',
    'tests/conftest.py': 'import pytest\n',
    'notebooks/explore.ipynb':
      '{"cells": [{"id": "c1", "cell_type": "code", "source": "1 + 1", "metadata": {}, "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
  },
  go: {
    'go.mod': 'module example.com/shop\n\ngo 1.22\n',
    'cart.go': 'package shop\n\nfunc Total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n\treturn sum\n}\n',
    'cart_test.go': 'package shop\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal("total")\n\t}\n}\n',
    'cmd/shop/main.go': 'package main\n\nfunc main() {}\n',
  },
  rust: {
    'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub fn total(prices: &Vec<u64>) -> u64 {\n    prices.iter().sum()\n}\n',
    'tests/cart.rs': 'use shop::total;\n\n#[test]\nfn total_sums() {\n    assert_eq!(total(&vec![1, 2]), 3);\n}\n',
  },
};

const COMMON_FILES: Record<string, string> = {
  'README.md': '# Shop\n\n## Usage\n\nSee docs/notes.md.\n',
  'docs/notes.md': '# Notes\n\nAdvance only when the gate is open.\n',
  'test/fixtures/old-project/.isdlc/state.json': '{"current_phase": "06-implementation", "active_workflow": null}\n',
};

function project(language: Language): string {
  const dir = tempDir(`isdlc-everyday-${language}-`);
  for (const [path, content] of Object.entries({ ...COMMON_FILES, ...PROJECT_FILES[language] })) writeFile(join(dir, path), content);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'start');
  // Without the sandbox: there the text rules refuse what they recognise (with it they leave the write to
  // the OS and only note it), so this is where a false refusal shows.
  const init = cli(['init', dir, '--no-sandbox']);
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  // The task plan a workflow has from the test strategy phase on (plan-surfacer asks for it).
  writePlan(dir);
  return dir;
}

function enter(dir: string, place: Place): void {
  if (place.kind === 'outside') {
    writeJson(join(dir, '.isdlc/state.json'), { ...workflowState('feature', '00-quick-scan'), active_workflow: null, current_phase: null, phases: {} });
    return;
  }
  const state = workflowState(place.type, place.phase);
  if (place.kind === 'failing') withTests(state, place.phase, testRecord('failed', 2));
  writeJson(join(dir, '.isdlc/state.json'), state);
}

const fill = (value: unknown, vars: Record<string, string>): unknown => {
  if (typeof value === 'string') return value.replace(/\$(ROOT|PHASE_AGENT|PHASE)\b/g, (_m, name: string) => vars[name] ?? '');
  if (Array.isArray(value)) return value.map((item) => fill(item, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
};

const base = (name: string): Json => JSON.parse(readFileSync(join(FIXTURES, 'payloads', name), 'utf8')) as Json;
const PRE = base('pre-bash.json');
const POST = base('post-bash.json');

/** The events Claude Code sends for one call: before it, and after it with a plausible result. */
function events(dir: string, entry: Entry, input: Json): Json[] {
  if (entry.tool === 'prompt') return [userPrompt(dir, String(input['prompt']))];
  const pre = { ...PRE, cwd: dir, tool_name: entry.tool, tool_input: input };
  let post: Json;
  if (entry.tool === 'Bash') post = bashPassed(dir, String(input['command']), entry.stdout ?? '');
  else if (entry.tool === 'Agent' || entry.tool === 'Task') post = { ...agentResult(dir, input, 'Done: nothing else to report.'), tool_name: entry.tool };
  else {
    const file = input['file_path'] ?? input['notebook_path'];
    const response: Json =
      entry.tool === 'Skill'
        ? { success: true, commandName: input['skill'] }
        : entry.tool === 'Write'
          ? { type: 'create', filePath: file, content: input['content'], structuredPatch: [], originalFile: null }
          : { filePath: file };
    post = { ...POST, cwd: dir, tool_name: entry.tool, tool_input: input, tool_response: response };
  }
  return [pre, post];
}

/** What Claude Code would make of a hook's answer, if it is anything but "go ahead". */
function refusal(run: Run): string | null {
  if (run.status === 2) return `exit 2: ${run.stderr.trim()}`;
  if (run.status !== 0) return `exit ${run.status}: ${run.stderr.trim()}`;
  const out = run.stdout.trim();
  if (out === '') return null;
  const answer = JSON.parse(out) as Json;
  const specific = (answer['hookSpecificOutput'] ?? {}) as Json;
  if (specific['permissionDecision'] === 'deny' || specific['permissionDecision'] === 'ask')
    return `${String(specific['permissionDecision'])}: ${String(specific['permissionDecisionReason'])}`;
  if (answer['decision'] === 'block') return `block: ${String(answer['reason'])}`;
  if (answer['continue'] === false) return `stop: ${String(answer['stopReason'])}`;
  return null;
}

/** The places an entry is played, given its turn among the entries of its project. */
function placesOf(entry: Entry, turn: number): Place[] {
  if (entry.where === 'every-phase') return PLACES.filter((place) => place.kind === 'phase');
  if (entry.where === 'failing') return PLACES.filter((place) => place.kind === 'failing');
  const eligible = PLACES.filter((place) =>
    entry.where === 'outside' ? place.kind === 'outside' : entry.where === 'workflow' ? place.kind !== 'outside' : true,
  );
  return [eligible[turn % eligible.length]!];
}

describe('everyday tool calls are never denied', () => {
  const shared = corpus('any');
  const plan = new Map<Language, { entry: Entry; place: Place }[]>(LANGUAGES.map((language) => [language, []]));
  // Shared calls take turns over the projects; an every-phase call takes the projects in turn by phase.
  shared.forEach((entry, index) => {
    const language = LANGUAGES[index % LANGUAGES.length]!;
    placesOf(entry, Math.floor(index / LANGUAGES.length)).forEach((place, n) =>
      plan.get(entry.where === 'every-phase' ? LANGUAGES[(index + n) % LANGUAGES.length]! : language)!.push({ entry, place }),
    );
  });
  for (const language of LANGUAGES)
    corpus(language).forEach((entry, index) => placesOf(entry, index).forEach((place) => plan.get(language)!.push({ entry, place })));
  const total = [...plan.values()].reduce((sum, calls) => sum + calls.length, 0);

  it('has at least 150 different calls and plays them in every phase the workflows use', () => {
    expect(shared.length + LANGUAGES.reduce((sum, language) => sum + corpus(language).length, 0)).toBeGreaterThanOrEqual(150);
    const played = new Set([...plan.values()].flat().map(({ place }) => placeName(place)));
    for (const place of PLACES) expect(played).toContain(placeName(place));
    expect(total).toBeGreaterThanOrEqual(150);
  });

  it.each(LANGUAGES)('in a %s project: no deny, no block, no ask', (language) => {
    const dir = project(language);
    const manifest = skillsManifest as unknown as SkillsManifest;
    const calls = plan.get(language)!.sort((a, b) => PLACES.indexOf(a.place) - PLACES.indexOf(b.place));
    const refused: string[] = [];
    let current: Place | undefined;
    let played = 0;
    for (const { entry, place } of calls) {
      if (place !== current) enter(dir, (current = place));
      const phase = place.kind === 'outside' ? '' : place.phase;
      const input = fill(entry.input, {
        ROOT: dir,
        PHASE: phase,
        PHASE_AGENT: phase ? (phaseAgent(manifest, phase) ?? 'general-purpose') : 'general-purpose',
      }) as Json;
      for (const payload of events(dir, entry, input)) {
        // Claude Code runs nothing of isdlc for a tool it registered no hook for (Read, Grep, Glob): allowed as is.
        const event = String(payload['hook_event_name']);
        if (
          !registeredCommands(dir, event, event === 'UserPromptSubmit' ? undefined : entry.tool).some((hook) =>
            JSON.stringify(hook).includes('.isdlc/bin/isdlc.cjs'),
          )
        )
          continue;
        played += 1;
        const why = refusal(answerAsRegistered(dir, payload));
        if (why)
          refused.push(
            `${placeName(place)} · ${String(payload['hook_event_name'])} ${entry.tool} ${JSON.stringify(input).slice(0, 160)}\n    → ${why.slice(0, 400)}`,
          );
      }
    }
    expect(refused, refused.join('\n')).toEqual([]);
    expect(played).toBeGreaterThan(calls.length);
  });
});

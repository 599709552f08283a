// doctor's look at testing.json, the command the gate runs itself before a phase that needs passing tests:
// a file that does not parse or has the wrong types, no command at all, or a package script that is not
// there each mean that no such gate can ever open; each is said here, before a phase finds out.
import { join } from 'node:path';
import { coverageAdvice, describeNeeds, missingCoverage, missingMutation, mutationAdvice } from '../config/coverage-advice.js';
import { loadTestingConfig, TESTING_PATH } from '../config/testing-config.js';
import { CONFIG_DIRS } from '../hosts/hook-hosts.js';
import type { Finding } from '../install/host-setup.js';
import { judgedByExitStatus, uncountedRunner, type UncountedRunner } from '../testwatch/countable.js';
import { readTextIfPresent } from '../util/read-text.js';

/** `npm test`, `npm run x`, `yarn x`, `pnpm run x`: the package script a command runs, if it names one. */
export function packageScriptOf(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  const [tool, verb, name] = words;
  if (tool !== 'npm' && tool !== 'yarn' && tool !== 'pnpm' && tool !== 'bun') return undefined;
  if (verb === 'test' || verb === 't') return 'test';
  if ((verb === 'run' || verb === 'run-script') && name && !name.startsWith('-')) return name;
  // `yarn build` and `pnpm build` run the script of that name.
  if (tool !== 'npm' && verb && !verb.startsWith('-') && !['install', 'add', 'exec', 'dlx', 'x'].includes(verb)) return verb;
  return undefined;
}

function scriptsOf(root: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readTextIfPresent(join(root, 'package.json')) ?? 'null');
    const scripts = typeof parsed === 'object' && parsed !== null ? (parsed as { scripts?: unknown }).scripts : undefined;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  } catch {
    return undefined;
  }
}

/** The command lines a command runs: itself, or the package scripts it names, followed a few levels down. */
function linesRun(command: string, scripts: Record<string, unknown> | undefined, depth = 0): string[] {
  const script = packageScriptOf(command);
  const text = script ? scripts?.[script] : undefined;
  if (typeof text !== 'string' || depth > 3) return [command];
  return [text, ...text.split(/&&|\|\||;/).flatMap((part) => (packageScriptOf(part) ? linesRun(part.trim(), scripts, depth + 1) : []))];
}

const ACCEPT = 'then `isdlc changes accept` in your own terminal, so isdlc takes the edit as yours';

/**
 * The runner the command runs, if the gate cannot count its tests with the options given: what to change,
 * and what judging by exit status costs meanwhile. Said by doctor, and by init when it writes testing.json.
 */
export function uncountedFinding(root: string): Finding | undefined {
  const loaded = loadTestingConfig(root);
  const command = loaded.config.command;
  if (loaded.problem || command === null) return undefined;
  const scripts = scriptsOf(root);
  let found: UncountedRunner | undefined;
  for (const line of linesRun(command, scripts)) found ??= uncountedRunner(line);
  if (!found) return undefined;
  const where = packageScriptOf(command) ? "in package.json's script" : `in ${TESTING_PATH}'s command, ${ACCEPT}`;
  return {
    severity: 'warn',
    what: `the gate cannot count the tests \`${command}\` runs (${found.runner}): ${found.why}; ${judgedByExitStatus(loaded.config.require_counts)}`,
    fix: `${found.fix} ${where}`,
  };
}

export function testingFindings(root: string): Finding[] {
  const loaded = loadTestingConfig(root);
  const edit = `edit ${TESTING_PATH}, ${ACCEPT}`;
  if (loaded.problem) return [{ severity: 'fail', what: `${loaded.problem}: the gate cannot run the tests until it is fixed`, fix: edit }];
  const { command, coverage_command: coverage, timeout_minutes: minutes } = loaded.config;
  if (command === null) {
    return [
      {
        severity: 'fail',
        what: `${TESTING_PATH} names no test command and none can be detected here: no phase that needs passing tests can complete`,
        fix: `set "command" in ${TESTING_PATH} (for example "npm test"), ${ACCEPT}`,
      },
    ];
  }
  const findings: Finding[] = [];
  const scripts = scriptsOf(root);
  for (const [label, line] of [
    ['command', command],
    ['coverage_command', coverage],
  ] as const) {
    const script = line ? packageScriptOf(line) : undefined;
    if (script && scripts && scripts[script] === undefined) {
      findings.push({
        severity: 'fail',
        what: `${TESTING_PATH}: ${label} \`${line}\` runs the package script "${script}", which package.json does not have`,
        fix: edit,
      });
    }
  }
  if (findings.length > 0) return findings;
  const from = loaded.guessed ? `detected (${TESTING_PATH} names none)` : loaded.from === 'detected' ? `detected (no ${TESTING_PATH})` : TESTING_PATH;
  const uncounted = uncountedFinding(root);
  return [
    {
      severity: loaded.guessed ? 'warn' : 'ok',
      what: `the gate runs \`${command}\` (timeout ${minutes} min; from ${from})`,
      ...(loaded.guessed ? { fix: `name it in ${TESTING_PATH}` } : {}),
    },
    ...(uncounted ? [uncounted] : []),
    ...coverageFindings(root),
    ...mutationFindings(root),
  ];
}

/** Whether the phases that want a coverage figure will get one from the gate's run. */
function coverageFindings(root: string): Finding[] {
  const advice = coverageAdvice(root, CONFIG_DIRS);
  if (!advice) return [];
  if (advice.missing) {
    const { what, step } = missingCoverage(advice.needs, advice.missing);
    return [{ severity: 'warn', what, fix: `${step}; the gate then measures it itself` }];
  }
  return [{ severity: 'ok', what: `coverage for ${describeNeeds(advice.needs)}: the gate measures it with \`${advice.command ?? '?'}\`` }];
}

/** Whether the phases that want a mutation score of the changed code will get one from the gate. */
function mutationFindings(root: string): Finding[] {
  const advice = mutationAdvice(root, CONFIG_DIRS);
  if (!advice) return [];
  if (advice.missing) {
    const { what, step } = missingMutation(advice.needs, advice.missing);
    return [{ severity: 'warn', what, fix: step }];
  }
  return [{ severity: 'ok', what: `mutation score for ${describeNeeds(advice.needs)}: the gate mutates the changed code with \`${advice.command ?? '?'}\`` }];
}

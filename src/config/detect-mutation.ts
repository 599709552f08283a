// Whether the gate can measure the mutation score of a workflow's changed code, and with what: the person's
// `mutation_command` in testing.json, else Stryker where the project has it installed with the plugin for
// its test runner. Where it lacks them, why and the one step that provides them: init and doctor say the
// step to the person, and `gate check` says it before a completion would run anything.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nodeRunnerOf } from './detect-coverage.js';
import { addDevDependency, installedVersion, readPackageJson, testScript } from './project-files.js';
import type { TestingConfig } from './testing-config.js';

/** Where Stryker's json reporter writes, unless a config file names another file. */
export const STRYKER_REPORT = 'reports/mutation/mutation.json';
export const STRYKER_CORE = '@stryker-mutator/core';
/** The command the gate runs Stryker with where testing.json names none. */
export const DETECTED_STRYKER = 'npx stryker run';

/** Stryker's config files, in the order it looks for them. */
export const STRYKER_CONFIG_FILES: readonly string[] = ['stryker.conf', 'stryker.config', '.stryker.conf', '.stryker.config'].flatMap((base) =>
  ['json', 'js', 'mjs', 'cjs'].map((ext) => `${base}.${ext}`),
);

/** The files Stryker mutates: JavaScript and TypeScript, and the script blocks of Vue and Svelte. */
export const STRYKER_SOURCES = /\.(?:[cm]?[jt]sx?|vue|svelte)$/;

/** Stryker's plugin for each runner it has one for; any other runner is run through its command runner. */
const STRYKER_RUNNERS: Record<string, string> = {
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  jasmine: 'jasmine',
};

export interface MutationTool {
  /** The command as configured or detected, before the changed code is named in it. */
  command: string;
  /** It runs Stryker: isdlc adds the changed line ranges (`--mutate`) and the json reporter. */
  stryker: boolean;
  /** For a detected Stryker without a config file: the runner plugin to run with (`--testRunner`). */
  testRunner?: string;
  /** The project's Stryker config file, which Stryker reads. */
  configFile?: string;
  /** The report the run writes, relative to the root. */
  report: string;
  from: 'file' | 'detected';
}

export type MutationSetup = { ok: true; tool: MutationTool } | { ok: false; missing: { why: string; step: string } };

const PERSON_SETS_COMMAND = 'isdlc config set testing mutation_command "<a command that mutates {files} and writes a mutation-testing report (JSON)>"';

export function strykerConfigFile(root: string): string | undefined {
  return STRYKER_CONFIG_FILES.find((file) => existsSync(join(root, file)));
}

/** A command that runs Stryker (`npx stryker run`, `stryker run -c conf.json`, `npm exec stryker run`). */
export function runsStryker(command: string): boolean {
  return /(?:^|[\s/])stryker(?:\.js)?\s+run\b/.test(command);
}

/** How the gate mutates this project's changed code, or what it lacks. */
export function detectMutation(root: string, testing: Pick<TestingConfig, 'mutation_command' | 'mutation_report'>): MutationSetup {
  if (testing.mutation_command) {
    const stryker = runsStryker(testing.mutation_command);
    const configFile = stryker ? strykerConfigFile(root) : undefined;
    return {
      ok: true,
      tool: {
        command: testing.mutation_command,
        stryker,
        ...(configFile ? { configFile } : {}),
        report: testing.mutation_report ?? STRYKER_REPORT,
        from: 'file',
      },
    };
  }
  const pkg = readPackageJson(root);
  if (!pkg) {
    return {
      ok: false,
      missing: {
        why: 'isdlc runs Stryker by itself only for a JavaScript or TypeScript project (a package.json), and testing.json names no mutation_command',
        step: PERSON_SETS_COMMAND,
      },
    };
  }
  const configFile = strykerConfigFile(root);
  const script = testScript(pkg);
  const runner = script ? nodeRunnerOf(script) : undefined;
  const plugin = configFile ? undefined : runner && STRYKER_RUNNERS[runner];
  const wanted = [STRYKER_CORE, ...(plugin ? [`@stryker-mutator/${plugin}-runner`] : [])];
  const absent = wanted.filter((name) => installedVersion(root, name) === undefined);
  if (absent.length > 0) {
    return {
      ok: false,
      missing: {
        why: `the gate measures it with Stryker, and ${absent.join(' and ')} ${absent.length === 1 ? 'is' : 'are'} not installed`,
        step: addDevDependency(root, absent.join(' ')),
      },
    };
  }
  return {
    ok: true,
    tool: {
      command: DETECTED_STRYKER,
      stryker: true,
      // Without a plugin Stryker's command runner runs `npm test` once per mutant.
      ...(configFile ? { configFile } : { testRunner: plugin ?? 'command' }),
      report: testing.mutation_report ?? STRYKER_REPORT,
      from: 'detected',
    },
  };
}

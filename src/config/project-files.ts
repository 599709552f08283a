// What a project's own files say about it, read the same way by every guess isdlc makes about the project.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTextIfPresent } from '../util/read-text.js';

export interface PackageJson {
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  jest?: unknown;
}

export function readPackageJson(root: string): PackageJson | undefined {
  try {
    const text = readTextIfPresent(join(root, 'package.json'));
    const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The package manager the lockfile names: its `test` is what a person of this project types. */
export function packageManager(root: string): string {
  if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(root, 'yarn.lock'))) return 'yarn';
  if (existsSync(join(root, 'bun.lockb')) || existsSync(join(root, 'bun.lock'))) return 'bun run';
  return 'npm';
}

export function hasDependency(pkg: PackageJson, name: string | RegExp): boolean {
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  return names.some((dep) => (typeof name === 'string' ? dep === name : name.test(dep)));
}

export function fileMentions(root: string, file: string, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(join(root, file), 'utf8'));
  } catch {
    return false;
  }
}

/** What `npm init` writes as the test script: it fails on purpose, so it is no test command. */
const NPM_PLACEHOLDER = /no test specified/;

/** package.json's test script, when it is a real one. */
export function testScript(pkg: PackageJson | undefined): string | undefined {
  const script = pkg?.scripts?.['test'];
  return typeof script === 'string' && script.trim() && !NPM_PLACEHOLDER.test(script) ? script.trim() : undefined;
}

/** How this project's package manager adds a development dependency. */
export function addDevDependency(root: string, name: string): string {
  const manager = packageManager(root);
  if (manager === 'pnpm') return `pnpm add -D ${name}`;
  if (manager === 'yarn') return `yarn add -D ${name}`;
  if (manager.startsWith('bun')) return `bun add -d ${name}`;
  return `npm install --save-dev ${name}`;
}

/** The version of a package installed in the project's node_modules, if any. */
export function installedVersion(root: string, name: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : undefined;
  } catch {
    return undefined;
  }
}

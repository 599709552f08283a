// Where a project's isdlc files live: the project root, which state file applies (one per project in a
// monorepo), and which folders hold its config.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { readTextIfPresent } from '../util/read-text.js';

export const ISDLC_DIR = '.isdlc';

export interface StateLocation {
  root: string;
  isdlcDir: string;
  stateFile: string;
  /** Where config files are looked for, in order: isdlc's folder, then the agent hosts' (src/config/project-config.ts). */
  configDirs: readonly string[];
  /** Set in a monorepo: the project whose state this is. */
  projectId?: string;
  /**
   * Set in a monorepo: where the project's documents live, relative to the root (`docs/<id>`, or
   * `<project path>/docs` with `docs_location: "project"`); artifact paths under `docs/` move there.
   */
  docsBase?: string;
  /** Why the project was chosen, for `status` and `doctor`. */
  chosenBy?: 'ISDLC_PROJECT' | 'cwd' | 'default_project';
  /** Something about the monorepo config a human should hear of. */
  warning?: string;
}

export interface LocateInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where config files are looked for, in order; the faces know the hosts that add folders to it. */
  configDirs: readonly string[];
}

export interface RootInput {
  /** The project folder the agent host names (an environment variable it sets for its hooks and shell). */
  hostProjectDir: string | undefined;
  cwd: string;
}

/** The folder the host names when it names one, else the nearest ancestor of `cwd` holding `.isdlc/`. */
export function findProjectRoot({ hostProjectDir, cwd }: RootInput): string | null {
  if (hostProjectDir) return resolve(hostProjectDir);
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ISDLC_DIR))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export interface MonorepoConfig {
  default_project?: string | null;
  docs_location?: string;
  projects?: Record<string, { path?: string; name?: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export function readMonorepoConfig(root: string): MonorepoConfig | null {
  const file = join(root, ISDLC_DIR, 'monorepo.json');
  const text = readTextIfPresent(file);
  if (text === undefined) return null;
  const parsed: unknown = JSON.parse(text); // a broken monorepo.json is an error the caller reports
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} is not a JSON object`);
  }
  return parsed as MonorepoConfig;
}

const SAFE_PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function normalisedProjectPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** The registered project whose path holds `cwd` most closely. */
function projectContaining(config: MonorepoConfig, root: string, cwd: string): string | undefined {
  const rel = relative(root, resolve(cwd)).split(sep).join('/');
  if (rel.startsWith('..')) return undefined;
  let best: { id: string; length: number } | undefined;
  for (const [id, project] of Object.entries(config.projects ?? {})) {
    const path = normalisedProjectPath(project.path ?? '');
    if (!path) continue;
    if ((rel === path || rel.startsWith(`${path}/`)) && (!best || path.length > best.length)) {
      best = { id, length: path.length };
    }
  }
  return best?.id;
}

export function locateState(root: string, input: LocateInput): StateLocation {
  const isdlcDir = join(root, ISDLC_DIR);
  const configDirs = input.configDirs;
  const single: StateLocation = { root, isdlcDir, stateFile: join(isdlcDir, 'state.json'), configDirs };
  const config = readMonorepoConfig(root);
  if (!config) return single;

  const known = new Set(Object.keys(config.projects ?? {}));
  const docsBaseOf = (projectId: string): string => {
    const path = normalisedProjectPath(config.projects?.[projectId]?.path ?? '');
    return config.docs_location === 'project' && path && !path.split('/').includes('..') ? `${path}/docs` : `docs/${projectId}`;
  };
  const at = (projectId: string, chosenBy: StateLocation['chosenBy']): StateLocation => ({
    root,
    isdlcDir,
    stateFile: join(isdlcDir, 'projects', projectId, 'state.json'),
    configDirs,
    projectId,
    chosenBy,
    docsBase: docsBaseOf(projectId),
  });

  let warning: string | undefined;
  const requested = input.env['ISDLC_PROJECT'];
  if (requested) {
    if (known.has(requested) && SAFE_PROJECT_ID.test(requested)) return at(requested, 'ISDLC_PROJECT');
    warning = `ISDLC_PROJECT=${requested} is not a project in .isdlc/monorepo.json; chose by directory instead`;
  }
  const byCwd = projectContaining(config, root, input.cwd);
  if (byCwd && SAFE_PROJECT_ID.test(byCwd)) return { ...at(byCwd, 'cwd'), ...(warning ? { warning } : {}) };
  const fallback = config.default_project;
  if (fallback && known.has(fallback) && SAFE_PROJECT_ID.test(fallback)) {
    return { ...at(fallback, 'default_project'), ...(warning ? { warning } : {}) };
  }
  return {
    ...single,
    warning: warning ?? 'monorepo.json names no default_project and no project holds this directory; using .isdlc/state.json',
  };
}

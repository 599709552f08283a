// The one config resolver. Every reader asks here; each file is looked up in `.isdlc/config/`, then in the
// config folders the agent hosts name (a project laid out for the JavaScript iSDLC framework keeps its config
// in its host's folder; the faces pass them in), then taken from the defaults bundled with isdlc. Files are
// read on first use only.
import { join } from 'node:path';
import bundledArtifactPaths from './defaults/artifact-paths.json';
import bundledRequirements from './defaults/iteration-requirements.json';
import bundledManifest from './defaults/skills-manifest.json';
import bundledWorkflows from './defaults/workflows.json';
import bundledConstitution from './defaults/constitution.md';
import { parseConstitution, type Constitution } from './constitution.js';
import type { ArtifactPaths, IterationRequirements, SkillsManifest, Workflows } from './schemas.js';
import { loadSchemas } from './load-schemas.js';
import { readTextIfPresent } from '../util/read-text.js';
import { parseYaml } from './yaml.js';

/** isdlc's own config folder, looked in first. */
export const ISDLC_CONFIG_DIR = '.isdlc/config';

/** Inside the config folder: the config files' JSON Schemas, which `init` writes and `$schema` names. */
export const CONFIG_SCHEMAS_DIR = 'schemas';

/** Where config files are looked for, in order: isdlc's folder, then the hosts' (`hostFolders`). */
export function configDirsWith(hostFolders: readonly string[]): readonly string[] {
  return [ISDLC_CONFIG_DIR, ...hostFolders];
}

export const BUNDLED = 'bundled';

export interface Loaded<T> {
  value: T;
  /** The file it came from, or `bundled`. */
  from: string;
  /** Why a project file was passed over for the bundled default. */
  problem?: string;
}

export type ConfigName = 'iteration-requirements' | 'artifact-paths' | 'workflows' | 'skills-manifest';

interface ConfigSpec {
  files: string[];
  schema: 'IterationRequirementsSchema' | 'ArtifactPathsSchema' | 'WorkflowsSchema' | 'SkillsManifestSchema';
  /**
   * The bundled default. A build carries it as JSON text (scripts/build.mjs), parsed on first use: as an
   * object literal it was built on every hook call, used or not (about 2 million instructions). From the
   * sources it is the object.
   */
  bundled: unknown;
}

const SPECS: { [K in ConfigName]: ConfigSpec } = {
  'iteration-requirements': { files: ['iteration-requirements.json'], schema: 'IterationRequirementsSchema', bundled: bundledRequirements },
  'artifact-paths': { files: ['artifact-paths.json'], schema: 'ArtifactPathsSchema', bundled: bundledArtifactPaths },
  workflows: { files: ['workflows.json'], schema: 'WorkflowsSchema', bundled: bundledWorkflows },
  'skills-manifest': {
    files: ['skills-manifest.json', 'skills-manifest.yaml', 'skills-manifest.yml'],
    schema: 'SkillsManifestSchema',
    bundled: bundledManifest,
  },
};

export type ConfigValue<K extends ConfigName> = {
  'iteration-requirements': IterationRequirements;
  'artifact-paths': ArtifactPaths;
  workflows: Workflows;
  'skills-manifest': SkillsManifest;
}[K];

export const CONFIG_NAMES = Object.keys(SPECS) as ConfigName[];

const parsedDefaults = new Map<ConfigName, unknown>();

/** The bundled defaults are trusted as they are (a test checks each against its schema). */
export function bundledConfig<K extends ConfigName>(name: K): ConfigValue<K> {
  if (!parsedDefaults.has(name)) {
    const bundled = SPECS[name].bundled;
    parsedDefaults.set(name, typeof bundled === 'string' ? JSON.parse(bundled) : bundled);
  }
  return parsedDefaults.get(name) as ConfigValue<K>;
}

export function loadConfig<K extends ConfigName>(root: string, name: K, configDirs: readonly string[]): Loaded<ConfigValue<K>> {
  const spec = SPECS[name];
  for (const dir of configDirs) {
    for (const file of spec.files) {
      const path = join(root, dir, file);
      let text: string | undefined;
      try {
        text = readTextIfPresent(path);
      } catch (error) {
        return { value: bundledConfig(name), from: BUNDLED, problem: `${path}: ${(error as Error).message}` };
      }
      if (text === undefined) continue;
      let parsed: unknown;
      try {
        parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
      } catch (error) {
        return { value: bundledConfig(name), from: BUNDLED, problem: `${path} does not parse: ${(error as Error).message}` };
      }
      const checked = loadSchemas().checkConfigFile(spec.schema, parsed);
      if (!checked.ok) return { value: bundledConfig(name), from: BUNDLED, problem: `${path}: ${checked.problem}` };
      return { value: checked.value as ConfigValue<K>, from: path };
    }
  }
  return { value: bundledConfig(name), from: BUNDLED };
}

/** A config file's content checked against its schema, as loadConfig would take it. */
export function checkConfigValue(name: ConfigName, value: unknown): { ok: true } | { ok: false; problem: string } {
  const checked = loadSchemas().checkConfigFile(SPECS[name].schema, value);
  return checked.ok ? { ok: true } : { ok: false, problem: checked.problem };
}

/** The file name a config is saved under in a config folder. */
export function configFileName(name: ConfigName): string {
  return SPECS[name].files[0]!;
}

/** Where the constitution is looked for, most specific first. */
export function constitutionCandidates(root: string, projectId?: string): string[] {
  const candidates = projectId
    ? [join(root, 'docs/isdlc/projects', projectId, 'constitution.md'), join(root, '.isdlc/projects', projectId, 'constitution.md')]
    : [];
  return [...candidates, join(root, 'docs/isdlc/constitution.md'), join(root, '.isdlc/constitution.md')];
}

export function loadConstitution(root: string, projectId?: string): Loaded<Constitution> {
  for (const path of constitutionCandidates(root, projectId)) {
    let text: string | undefined;
    try {
      text = readTextIfPresent(path);
    } catch (error) {
      return { value: parseConstitution(bundledConstitution), from: BUNDLED, problem: `${path}: ${(error as Error).message}` };
    }
    if (text !== undefined) return { value: parseConstitution(text), from: path };
  }
  return { value: parseConstitution(bundledConstitution), from: BUNDLED };
}

export function bundledConstitutionText(): string {
  return bundledConstitution;
}

/** A project's config, each file loaded the first time something asks for it. */
export class ProjectConfig {
  private readonly cache = new Map<string, Loaded<unknown>>();

  constructor(
    readonly root: string,
    /** Where config files are looked for, in order (configDirsWith). */
    readonly configDirs: readonly string[],
    readonly projectId?: string,
  ) {}

  get<K extends ConfigName>(name: K): Loaded<ConfigValue<K>> {
    let loaded = this.cache.get(name) as Loaded<ConfigValue<K>> | undefined;
    if (!loaded) {
      loaded = loadConfig(this.root, name, this.configDirs);
      this.cache.set(name, loaded);
    }
    return loaded;
  }

  get iterationRequirements(): IterationRequirements {
    return this.get('iteration-requirements').value;
  }

  get artifactPaths(): ArtifactPaths {
    return this.get('artifact-paths').value;
  }

  get workflows(): Workflows {
    return this.get('workflows').value;
  }

  get manifest(): SkillsManifest {
    return this.get('skills-manifest').value;
  }

  get constitution(): Constitution {
    return this.loadedConstitution().value;
  }

  /** The constitution with where it came from (`bundled` when the project has none of its own). */
  loadedConstitution(): Loaded<Constitution> {
    let loaded = this.cache.get('constitution') as Loaded<Constitution> | undefined;
    if (!loaded) {
      loaded = loadConstitution(this.root, this.projectId);
      this.cache.set('constitution', loaded);
    }
    return loaded;
  }

  /** Problems met by what has been loaded so far. */
  problems(): string[] {
    return [...this.cache.values()].flatMap((loaded) => (loaded.problem ? [loaded.problem] : []));
  }
}

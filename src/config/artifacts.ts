// Artifact path templates. `{artifact_folder}` is the only variable; others are left as written.
import { basename, dirname, isAbsolute, normalize } from 'node:path';
import { BUNDLED, type ProjectConfig } from './project-config.js';
import type { ArtifactPaths, PhaseRequirements } from './schemas.js';

/** A folder name that could lead outside the project never resolves. */
function safeFolder(folder: string): boolean {
  return folder.length > 0 && !folder.includes('..') && !/[\\/]/.test(folder) && !isAbsolute(folder);
}

/** The path with `{artifact_folder}` filled in, or null when the folder is missing or unsafe. */
export function resolveArtifactPath(template: string, artifactFolder: string | null | undefined): string | null {
  if (!template.includes('{artifact_folder}')) return template;
  if (!artifactFolder || !safeFolder(artifactFolder)) return null;
  const resolved = normalize(template.split('{artifact_folder}').join(artifactFolder));
  return resolved.startsWith('..') || isAbsolute(resolved) ? null : resolved;
}

export function artifactTemplatesFor(paths: ArtifactPaths, phase: string): string[] {
  const entry = paths.phases[phase];
  return typeof entry === 'object' ? entry.paths : [];
}

/**
 * The templates a phase's gate asks for. As in the JavaScript framework (its BUG-0020), the artifact-paths
 * file's list for the phase replaces the requirement's own `artifact_validation.paths`; they are not added
 * together. The one exception is isdlc's own: a project that names paths in its iteration-requirements
 * but has no artifact-paths file of its own keeps its paths over the bundled defaults.
 */
export function requiredArtifactTemplates(config: ProjectConfig, phase: string, requirements: PhaseRequirements): string[] {
  const own = requirements.artifact_validation?.paths ?? [];
  const listed = config.get('artifact-paths');
  const fromFile = artifactTemplatesFor(listed.value, phase);
  if (fromFile.length === 0 || (listed.from === BUNDLED && own.length > 0)) return own;
  return fromFile;
}

/**
 * Paths in one folder are variants of one artifact (`interface-spec.yaml`, `interface-spec.md`): any one
 * of them is enough, as the JavaScript framework's gate had it. Groups keep the order they were listed in.
 */
export function artifactVariantGroups(paths: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const folder = dirname(path.replace(/\\/g, '/'));
    const group = groups.get(folder);
    if (group) group.push(path);
    else groups.set(folder, [path]);
  }
  return [...groups.values()];
}

/** A missing group as the model should read it: the first path, then `(or other-name)` for each variant. */
export function describeVariants(group: readonly string[]): string {
  return [group[0], ...group.slice(1).map((path) => `(or ${basename(path)})`)].join(' ');
}

/** In a monorepo, a path under `docs/` belongs under the project's own documents folder. */
export function scopeToProject(path: string, docsBase: string | undefined): string {
  if (!docsBase) return path;
  const posix = path.replace(/\\/g, '/');
  // docs/isdlc/ holds isdlc's own documents, which are per repository.
  return posix.startsWith('docs/') && !posix.startsWith('docs/isdlc/') ? `${docsBase}/${posix.slice('docs/'.length)}` : path;
}

// Artifact path templates. `{artifact_folder}` is the only variable; others are left as written.
import { isAbsolute, normalize } from 'node:path';
import type { ArtifactPaths } from './schemas.js';

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

/** In a monorepo, a path under `docs/` belongs under the project's own documents folder (seed 003 AC-007e). */
export function scopeToProject(path: string, docsBase: string | undefined): string {
  if (!docsBase) return path;
  const posix = path.replace(/\\/g, '/');
  // docs/isdlc/ holds isdlc's own documents, which are per repository.
  return posix.startsWith('docs/') && !posix.startsWith('docs/isdlc/') ? `${docsBase}/${posix.slice('docs/'.length)}` : path;
}

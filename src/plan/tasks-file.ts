// The task plan (`tasks.md`) the original framework's generate-plan skill writes: where it lives, and
// what is wrong with one that claims the v2.0 format. Only a plan that says `Format: v2.0` is checked,
// so older plans are never nagged about.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StateLocation } from '../state/locate.js';

/** Where the plan may be, preferred first: the docs location, then the older `.isdlc/` one. */
export function tasksPathCandidates(location: StateLocation): string[] {
  return location.projectId
    ? [`docs/isdlc/projects/${location.projectId}/tasks.md`, `.isdlc/projects/${location.projectId}/tasks.md`]
    : ['docs/isdlc/tasks.md', '.isdlc/tasks.md'];
}

/** The plan's path relative to the root, or null when there is none. */
export function findTasksFile(location: StateLocation): string | null {
  return tasksPathCandidates(location).find((path) => existsSync(join(location.root, path))) ?? null;
}

// Task ids: T0001 (v2.0 plans) and T001 / T001A (later plans).
const TASK_LINE = /^- \[(?: |X|x|BLOCKED)\] (T\d{3,4}[A-Z]?)\b/;
const IMPLEMENTATION_SECTION = /^## Phase \d+:.*Implementation/im;

/** The task blocks of a text: each task line with its two-space-indented sub-lines. */
function taskBlocks(text: string): { id: string; lines: string[] }[] {
  const blocks: { id: string; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const task = TASK_LINE.exec(line);
    if (task) blocks.push({ id: task[1]!, lines: [line] });
    else if (/^ {2}\S/.test(line) && blocks.length > 0) blocks[blocks.length - 1]!.lines.push(line);
    else if (line.trim() !== '') blocks.push({ id: '', lines: [] }); // anything else ends the block
  }
  return blocks.filter((block) => block.id);
}

/** Tasks caught in a dependency cycle (`blocked_by:` sub-lines), found by taking away tasks with nothing left blocking them. */
export function tasksInCycles(text: string): string[] {
  const blocks = taskBlocks(text);
  const ids = new Set(blocks.map((block) => block.id));
  const blockers = new Map<string, Set<string>>();
  for (const block of blocks) {
    const line = block.lines.find((l) => /^\s{2}blocked_by:\s*\[/.test(l));
    const listed = line
      ? (/\[([^\]]*)\]/.exec(line)?.[1] ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter((id) => ids.has(id) && id !== '')
      : [];
    blockers.set(block.id, new Set(listed));
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const [id, waiting] of blockers) {
      if ([...waiting].every((blocker) => !blockers.has(blocker))) {
        blockers.delete(id);
        changed = true;
      }
    }
  }
  return [...blockers.keys()];
}

/** What is wrong with a v2.0 plan's implementation section; [] for a good plan or one of another format. */
export function planProblems(text: string): string[] {
  if (!/^Format:\s*v2\.0/m.test(text)) return [];
  const start = IMPLEMENTATION_SECTION.exec(text);
  if (!start) return ['it has no implementation section (`## Phase 06: Implementation`)'];
  const rest = text.slice(start.index + start[0].length);
  const end = rest.search(/^## /m);
  const section = end >= 0 ? rest.slice(0, end) : rest;
  const problems: string[] = [];
  if (!/^\s{2}files:/m.test(section)) problems.push('its implementation tasks name no files (`  files:` lines): the plan was not refined after design');
  const tasks = section.split(/\r?\n/).filter((line) => TASK_LINE.test(line));
  if (tasks.length > 0 && !section.includes('| traces:')) problems.push('its implementation tasks trace to no requirement (`| traces: FR-.., AC-..`)');
  if (text.includes('## Dependency Graph')) {
    const cycle = tasksInCycles(text);
    if (cycle.length > 0) problems.push(`its dependencies go round in a cycle among ${cycle.join(', ')}: no order can satisfy \`blocked_by\``);
  }
  return problems;
}

// The discover command's first menu offers exactly three paths (new project, existing project, chat or
// explore). A menu that lacks one, or shows a retired option, is reported to the model and the user;
// never blocked.
import { normalizeAgentName } from '../config/agents.js';
import { defineGuard } from '../engine/guard.js';
import { asText } from '../util/json.js';

const REQUIRED: { label: string; pattern: RegExp }[] = [
  { label: 'New Project', pattern: /new\s+project/i },
  { label: 'Existing Project', pattern: /existing\s+project/i },
  { label: 'Chat / Explore', pattern: /\b(?:chat|explore)\b/i },
];
const FORBIDDEN: { label: string; pattern: RegExp }[] = [
  { label: 'Scoped Analysis', pattern: /scoped\s+analysis/i },
  // Only as an option of its own ("[3] Auto-detect"), not a word in a sentence.
  { label: 'Auto-detect', pattern: /^\s*(?:\[\d+\]|\d+[.)]|[-*])\s*\**auto[- ]?detect\b/im },
];
/** Two or more numbered options: `[1] ...`, `1. ...`, `1) ...`. */
const NUMBERED_OPTIONS = /^\s*(?:\[\d+\]|\d+[.)])\s+\S/gm;

function isDiscover(input: Record<string, unknown>): boolean {
  const agent = normalizeAgentName(typeof input['subagent_type'] === 'string' ? input['subagent_type'] : '');
  if (agent.includes('discover')) return true;
  const text = `${asText(input['description'])}\n${asText(input['prompt'])}`;
  return /(?:^|\s)\/?(?:isdlc\s+)?discover\b/i.test(text);
}

export const discoverMenuGuard = defineGuard({
  id: 'discover-menu-guard',
  description: 'Tells the model and the user when a discover menu lacks a required option or shows a retired one.',
  on: { PostToolUse: ['agent'] },
  check({ event, note, tellUser, log }) {
    if (!event.tool || !event.outcome || !isDiscover(event.tool.input)) return;
    const text = event.outcome.text;
    if (text.length < 50 || (text.match(NUMBERED_OPTIONS) ?? []).length < 2) return;
    const missing = REQUIRED.filter((option) => !option.pattern.test(text)).map((option) => option.label);
    const retired = FORBIDDEN.filter((option) => option.pattern.test(text)).map((option) => option.label);
    if (missing.length === 0 && retired.length === 0) return;
    log({ missing, retired });
    const problems = [
      missing.length ? `it lacks ${missing.join(', ')}` : '',
      retired.length ? `it offers ${retired.join(', ')}, which is no longer an option` : '',
    ]
      .filter(Boolean)
      .join('; ');
    note(
      `isdlc discover-menu-guard: the discover menu just shown is not the current one: ${problems}. ` +
        'Show the user the three options instead: [1] New Project, [2] Existing Project, [3] Chat / Explore.',
    );
    tellUser(`isdlc: the discover menu you were shown is out of date (${problems}); the options are New Project, Existing Project, Chat / Explore.`);
  },
});

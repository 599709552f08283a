import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentResult } from '../../test/helpers/payloads.js';

const P = '/project';
const DISCOVER = { subagent_type: 'discover-orchestrator', prompt: '/discover' };
const CURRENT =
  'What would you like to do?\n\n[1] New Project: set up isdlc for a project that has no code yet\n[2] Existing Project: analyse this codebase\n[3] Chat / Explore: ask questions first\n';
const OLD = 'Choose a discovery mode:\n\n1. New Project\n2. Existing Project\n3. Scoped Analysis of one module\n4. Auto-detect\n';
const quiet = ({ decision }: { decision: { context?: string } }) => expect(decision.context).toBeUndefined();

guardTable('discover-menu-guard', {
  valid: [
    { name: 'the current three-option menu is silent (T04)', payload: agentResult(P, DISCOVER, CURRENT), expect: 'allow', then: quiet },
    {
      name: 'the old four-option menu is reported, never blocked (T02, T03)',
      payload: agentResult(P, DISCOVER, OLD),
      expect: 'allow',
      contextIncludes: ['lacks Chat / Explore', 'Scoped Analysis, Auto-detect', '[3] Chat / Explore'],
      then: ({ decision }) => expect(decision.systemMessage).toContain('out of date'),
    },
    {
      name: 'a menu missing Existing Project',
      payload: agentResult(
        P,
        { subagent_type: 'general-purpose', prompt: 'Run /isdlc discover and show the menu' },
        '[1] New Project\n[2] Chat\n[3] Something else entirely, described at length',
      ),
      expect: 'allow',
      contextIncludes: ['lacks Existing Project'],
    },
    {
      name: 'non-discover subagents are not read (T05)',
      payload: agentResult(P, { subagent_type: 'general-purpose', prompt: 'List options' }, OLD),
      expect: 'allow',
      then: quiet,
    },
    { name: 'text too short to be a menu (T08)', payload: agentResult(P, DISCOVER, '1. New Project 2. Scoped'), expect: 'allow', then: quiet },
    {
      name: 'a discovery report, not a menu',
      payload: agentResult(
        P,
        DISCOVER,
        'Discovery complete. The project auto-detects its config; scoped analysis was not needed. See docs/project-discovery-report.md.',
      ),
      expect: 'allow',
      then: quiet,
    },
    {
      name: '"auto-detect" inside a sentence of a correct menu',
      payload: agentResult(P, DISCOVER, `${CURRENT}(The language is auto-detected either way.)\n`),
      expect: 'allow',
      then: quiet,
    },
  ],
  invalid: [],
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall } from '../../test/helpers/payloads.js';
import { FIXTURES } from '../../test/helpers/project.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const plan = (name: string): string => readFileSync(join(FIXTURES, 'plans', name), 'utf8');
const monorepo = { version: '1.0.0', default_project: 'api', projects: { api: { name: 'api', path: 'services/api' } } };
const quiet = ({ decision }: { decision: { context?: string } }) => expect(decision.context).toBeUndefined();
const developer = agentCall(P, { subagent_type: 'software-developer', prompt: 'Implement the tasks of phase 06.' });

guardTable('plan-surfacer', {
  valid: [
    {
      name: 'an early phase needs no plan (T02, T08: 05-test-strategy)',
      state: workflowState('feature', '05-test-strategy'),
      payload: agentCall(P, { subagent_type: 'test-design-engineer' }),
      expect: 'allow',
    },
    {
      name: 'implementation with a good v2.0 plan (T03)',
      state: workflowState('feature', '06-implementation'),
      files: { 'docs/isdlc/tasks.md': plan('valid-v2.md') },
      payload: developer,
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'the plan at the older .isdlc/tasks.md',
      state: workflowState('feature', '06-implementation'),
      files: { '.isdlc/tasks.md': plan('valid-v2.md') },
      payload: developer,
      expect: 'allow',
      then: quiet,
    },
    {
      name: "a monorepo project's plan (T09)",
      files: {
        '.isdlc/monorepo.json': monorepo,
        '.isdlc/projects/api/state.json': workflowState('feature', '06-implementation'),
        'docs/isdlc/projects/api/tasks.md': plan('valid-v2.md'),
      },
      payload: developer,
      expect: 'allow',
    },
    { name: 'no state file (T04)', payload: developer, expect: 'allow' },
    { name: 'no active workflow (T05)', state: { state_version: 1, active_workflow: null }, payload: developer, expect: 'allow' },
    {
      name: 'an ordinary subagent in implementation, without a plan (T06)',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'Explore', prompt: 'Find where orders are listed.' }),
      expect: 'allow',
    },
    {
      name: 'an out-of-order delegation is left to phase-sequence-guard',
      state: workflowState('feature', '01-requirements'),
      payload: developer,
      expect: 'allow',
    },
    {
      name: 'a plan with a dependency cycle: a note, not a denial',
      state: workflowState('feature', '06-implementation'),
      files: { 'docs/isdlc/tasks.md': plan('cycle-v2.md') },
      payload: developer,
      expect: 'allow',
      contextIncludes: ['plan-surfacer', 'cycle among T0010, T0011, T0012'],
      then: ({ decision }) => expect(decision.context).not.toContain('T0013'),
    },
    {
      name: 'an unrefined plan: no files, no traces',
      state: workflowState('feature', '06-implementation'),
      files: { 'docs/isdlc/tasks.md': plan('unrefined-v2.md') },
      payload: developer,
      expect: 'allow',
      contextIncludes: ['name no files', 'trace to no requirement'],
    },
    {
      name: 'an older plan without "Format: v2.0" is not judged',
      state: workflowState('feature', '06-implementation'),
      files: { 'docs/isdlc/tasks.md': plan('legacy-v1.md') },
      payload: developer,
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'the format is judged at implementation only',
      state: workflowState('feature', '16-quality-loop'),
      files: { 'docs/isdlc/tasks.md': plan('cycle-v2.md') },
      payload: agentCall(P, { subagent_type: 'quality-loop-engineer' }),
      expect: 'allow',
      then: quiet,
    },
  ],
  invalid: [
    {
      name: 'implementation without a plan (T01, T07), naming the file to write',
      state: workflowState('feature', '06-implementation'),
      payload: developer,
      expect: 'deny',
      reasonIncludes: [
        'isdlc plan-surfacer: Write the task plan docs/isdlc/tasks.md first, then delegate again',
        '06-implementation cannot be delegated without it',
        'ORCH-012',
      ],
    },
    {
      name: 'the next phase, reached but not yet activated',
      state: (() => {
        const s = workflowState('fix', '05-test-strategy');
        s['active_workflow'].phase_status['05-test-strategy'] = 'completed';
        s['phases']['05-test-strategy'].status = 'completed';
        s['active_workflow'].current_phase_index += 1;
        return s;
      })(),
      payload: developer,
      expect: 'deny',
      reasonIncludes: ['06-implementation'],
    },
    {
      name: 'quality loop without a plan',
      state: workflowState('feature', '16-quality-loop'),
      payload: agentCall(P, { subagent_type: 'quality-loop-engineer' }),
      expect: 'deny',
    },
    {
      name: 'a monorepo project names its own plan path (T09)',
      files: {
        '.isdlc/monorepo.json': monorepo,
        '.isdlc/projects/api/state.json': workflowState('feature', '06-implementation'),
        'docs/isdlc/tasks.md': plan('valid-v2.md'),
      },
      payload: developer,
      expect: 'deny',
      reasonIncludes: ['docs/isdlc/projects/api/tasks.md'],
    },
  ],
});

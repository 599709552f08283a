// Who checked the constitution: `isdlc gate check` on recorded article checks, as a
// table of recorders. 06-implementation reviews independently by default: a check counts only when a
// caller the host named is not the phase's worker (software-developer), or a person recorded it where the
// agent's shell could not have.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import bundled from '../../src/config/defaults/iteration-requirements.json';
import { cli, tempDir, writeJson } from '../helpers/project.js';
import { compliant, workflowState } from '../helpers/states.js';

type State = Record<string, any>;
const PHASE = '06-implementation';
const ARTICLES = ['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];
const AT = '2026-11-25T10:20:00.000Z';
const WORKER_RUN = 'a5dev0001';
const mcp = (by?: State): State => ({ result: 'compliant', at: AT, iteration: 1, recorded_with: 'mcp_tool', ...(by ? { by } : {}) });
const terminal = (claim: State, by?: State): State => ({
  result: 'compliant',
  at: AT,
  iteration: 1,
  recorded_with: 'cli',
  terminal: claim,
  ...(by ? { by } : {}),
});
const SESSION = 's-1';
const REVIEWER = { session: SESSION, agent_id: 'a7rv0001', agent_type: 'constitution-reviewer' };
const WORKER = { session: SESSION, agent_id: WORKER_RUN, agent_type: 'software-developer' };

/** A feature workflow in 06-implementation whose articles are all compliant, each checked as `entry` says. */
function checkedBy(entry: (article: string) => State | undefined, type = 'feature', phase = PHASE, articles = ARTICLES): State {
  const state = workflowState(type, phase);
  const results = Object.fromEntries(articles.flatMap((id) => (entry(id) ? [[id, entry(id)]] : [])));
  state['phases'][phase].constitutional_validation = { ...compliant(articles), article_results: results };
  // The worker ran in the background; its run's id is logged with the delegation.
  state['skill_usage_log'].push({
    timestamp: AT,
    agent: 'software-developer',
    agent_phase: PHASE,
    current_phase: PHASE,
    agent_id: WORKER_RUN,
    outcome: 'completed',
  });
  return state;
}

function constitutional(state: State, config?: State, phase = PHASE): { met: boolean; detail: string; action?: string; text: string } {
  const dir = tempDir('isdlc-independent-');
  writeJson(join(dir, '.isdlc/state.json'), state);
  if (config) writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), config);
  const json = cli(['gate', 'check', '--json', '--dir', dir, '--phase', phase]);
  const check = (JSON.parse(json.stdout) as { checks: { requirement: string; met: boolean; detail: string; action?: string }[] }).checks.find(
    (c) => c.requirement === 'constitutional_validation',
  );
  expect(check, json.stderr).toBeDefined();
  return { ...check!, text: cli(['gate', 'check', '--dir', dir, '--phase', phase]).stdout };
}

interface Case {
  name: string;
  state: State;
  config?: State;
  met: boolean;
  says: string[];
}

/** The bundled requirements with the feature workflow's 06-implementation set to `review`. */
function featureOverride(review: boolean): State {
  const copy = JSON.parse(JSON.stringify(bundled)) as State;
  copy['workflow_overrides']['feature'][PHASE] = { constitutional_validation: { independent_review: review } };
  return copy;
}

/** `state` with `files` changed in the phase at CHANGED, and the reviewer's run logged having read `read` (path: when). */
const CHANGED = '2026-11-25T10:10:00.000Z';
function withEvidence(state: State, files: string[], reviewerRun?: State): State {
  state['phases'][PHASE].changed_files = Object.fromEntries(files.map((file) => [file, CHANGED]));
  if (reviewerRun) {
    state['skill_usage_log'].push({
      timestamp: AT,
      agent: 'constitution-reviewer',
      agent_phase: '',
      current_phase: PHASE,
      agent_id: REVIEWER.agent_id,
      outcome: 'completed',
      ...reviewerRun,
    });
  }
  return state;
}

const CASES: Case[] = [
  {
    name: 'a general-purpose subagent told to record the articles compliant: not a reviewer kind the project names',
    state: checkedBy(() => mcp({ session: SESSION, agent_id: 'a9gp', agent_type: 'general-purpose' })),
    met: false,
    says: [
      'recorded by general-purpose (agent a9gp): general-purpose is not a reviewer here: the review counts from',
      'constitutional_validation.reviewers names them',
    ],
  },
  {
    name: 'a reviewer whose run changed files in this phase itself reviewed its own work',
    state: withEvidence(
      checkedBy(() => mcp(REVIEWER)),
      ['src/sum.js'],
      { work_in: { [PHASE]: ['change'] }, read_in: { [PHASE]: { 'src/sum.js': AT } } },
    ),
    met: false,
    says: ['its run changed files in this phase itself: a review of its own work'],
  },
  {
    name: 'a reviewer whose run never read what the phase changed: a stamp, naming the files',
    state: withEvidence(
      checkedBy(() => mcp(REVIEWER)),
      ['src/sum.js', 'src/csv.js'],
      { read_in: { [PHASE]: { 'src/sum.js': AT } } },
    ),
    met: false,
    says: ['its run did not read what the phase changed (since the last change): src/csv.js'],
  },
  {
    name: 'a reviewer that read a file before its last change has not read the change',
    state: withEvidence(
      checkedBy(() => mcp(REVIEWER)),
      ['src/sum.js'],
      { read_in: { [PHASE]: { 'src/sum.js': '2026-11-25T10:05:00.000Z' } } },
    ),
    met: false,
    says: ['did not read what the phase changed (since the last change): src/sum.js'],
  },
  {
    name: 'a reviewer that read every changed file after its change: an independent review',
    state: withEvidence(
      checkedBy(() => mcp(REVIEWER)),
      ['src/sum.js', 'src/csv.js'],
      {
        read_in: { [PHASE]: { 'src/sum.js': AT, 'src/csv.js': AT } },
      },
    ),
    met: true,
    says: ['all 9 articles compliant; recorded by constitution-reviewer (agent a7rv0001)'],
  },
  {
    name: 'the project names its reviewers: another manifest agent does not count',
    state: checkedBy(() => mcp(REVIEWER)),
    config: (() => {
      const copy = JSON.parse(JSON.stringify(bundled)) as State;
      copy['phase_requirements'][PHASE]['constitutional_validation']['reviewers'] = ['security-auditor'];
      return copy;
    })(),
    met: false,
    says: ['constitution-reviewer is not a reviewer here: the review counts from security-auditor'],
  },
  {
    name: 'the worker recorded every article itself (its type, through the MCP tool): not accepted, and the gate says by whom',
    state: checkedBy(() => mcp(WORKER)),
    met: false,
    says: [
      "Article VII: compliant, recorded by software-developer (agent a5dev0001) (the phase's worker): needs a review by an agent other than software-developer",
      "delegate the check of the phase's work against those articles to constitution-reviewer (a reviewer), which reads what the phase changed",
    ],
  },
  {
    name: "a general-purpose agent whose id is the worker's logged run in this phase is the worker",
    state: checkedBy(() => mcp({ ...WORKER, agent_type: 'general-purpose' })),
    met: false,
    says: ["recorded by general-purpose (agent a5dev0001) (the phase's worker)"],
  },
  {
    name: 'another agent recorded them: accepted, and named',
    state: checkedBy(() => mcp(REVIEWER)),
    met: true,
    says: ['all 9 articles compliant; recorded by constitution-reviewer (agent a7rv0001): I, II, III, V, VI, VII, VIII, IX, X'],
  },
  {
    name: 'the reviewer checked all, then the worker recorded Article VII again: its latest check is the one that counts',
    state: checkedBy((id) => mcp(id === 'VII' ? WORKER : REVIEWER)),
    met: false,
    says: [
      "recorded by constitution-reviewer (agent a7rv0001): I, II, III, V, VI, VIII, IX, X; software-developer (agent a5dev0001) (the phase's worker): VII",
      'Article VII: compliant',
    ],
  },
  {
    name: 'the main session recorded them: not an independent review',
    state: checkedBy(() => mcp({ session: SESSION })),
    met: false,
    says: ['Article I: compliant, recorded by the main session: the main session runs the phase and may have written its code'],
  },
  {
    name: "a reviewer's check found only by the time of its shell call: shown, not counted",
    state: checkedBy(() => terminal({ user: 'root', agent_shell: true, sandboxed: false }, { ...REVIEWER, via: 'shell' })),
    met: false,
    says: ["recorded by constitution-reviewer (agent a7rv0001), by the time of its shell call: an isdlc command's check is tied to its caller only by time"],
  },
  {
    name: "a person's terminal in a sandboxed project: the agent's shell could not have written it, so it counts",
    state: checkedBy(() => terminal({ user: 'dana', agent_shell: false, sandboxed: true })),
    met: true,
    says: ['recorded by dana in their own terminal: I, II'],
  },
  {
    name: 'a terminal without the sandbox: it could be the agent with CLAUDECODE unset, so it does not count',
    state: checkedBy(() => terminal({ user: 'dana', agent_shell: false, sandboxed: false })),
    met: false,
    says: ["recorded by dana's terminal, or an agent's shell that unset its host's marker: without the agent host's sandbox isdlc cannot tell"],
  },
  {
    name: "an agent's shell that no shell call was seen to cover",
    state: checkedBy(() => terminal({ user: 'root', agent_shell: true, sandboxed: false })),
    met: false,
    says: ["recorded by an agent's shell (an isdlc command no shell call was seen to run)"],
  },
  {
    name: 'an MCP check whose caller nobody named (no hook ran after it)',
    state: checkedBy(() => mcp()),
    met: false,
    says: ['recorded by an unknown caller: nothing says who made this check'],
  },
  {
    name: 'a record that says compliant without the checks themselves',
    state: checkedBy(() => undefined),
    met: false,
    says: ['Article I: no recorded check says who checked it'],
  },
  {
    name: "the project's workflow_overrides turn independent review off for the feature workflow's 06-implementation: the worker's checks count, and are named",
    state: checkedBy(() => mcp(WORKER)),
    config: featureOverride(false),
    met: true,
    says: ["all 9 articles compliant; recorded by software-developer (agent a5dev0001) (the phase's worker): I, II"],
  },
  {
    name: 'a phase without independent review (08-code-review) still names who recorded its checks, its own worker included',
    state: checkedBy(() => mcp({ session: SESSION, agent_id: 'a8rev', agent_type: 'qa-engineer' }), 'feature', '08-code-review', ['VI', 'IX']),
    met: true,
    says: ["all 2 articles compliant; recorded by qa-engineer (agent a8rev) (the phase's worker): VI, IX"],
  },
];

describe('independent review of the constitution: who recorded each article (isdlc gate check)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const phase = String(c.state['active_workflow'].current_phase);
      const check = constitutional(c.state, c.config, phase);
      expect(check.met, check.detail).toBe(c.met);
      for (const words of c.says) expect(`${check.detail} ${check.action ?? ''}`).toContain(words);
      // The person's reading shows the same line, open gate or closed.
      expect(check.text).toContain(`constitutional_validation: ${check.detail.slice(0, 60)}`);
    });
  }

  it('workflow_overrides turn it on where the bundled default leaves it off', () => {
    const config = JSON.parse(JSON.stringify(bundled)) as State;
    config['workflow_overrides']['feature']['08-code-review'] = { constitutional_validation: { independent_review: true } };
    const state = checkedBy(() => mcp(REVIEWER), 'feature', '08-code-review', ['VI', 'IX']);
    state['skill_usage_log'].push({
      timestamp: AT,
      agent: 'qa-engineer',
      agent_phase: '08-code-review',
      current_phase: '08-code-review',
      agent_id: 'a8qa',
      outcome: 'completed',
    });
    // The reviewer's checks count there now; software-developer's would not (not a reviewer).
    expect(constitutional(state, config, '08-code-review').met).toBe(true);
    expect(
      constitutional(
        checkedBy(() => mcp(WORKER), 'feature', '08-code-review', ['VI', 'IX']),
        config,
        '08-code-review',
      ).met,
    ).toBe(false);
    const own = checkedBy(() => mcp({ session: SESSION, agent_id: 'a8qa', agent_type: 'general-purpose' }), 'feature', '08-code-review', ['VI', 'IX']);
    own['skill_usage_log'].push({
      timestamp: AT,
      agent: 'qa-engineer',
      agent_phase: '08-code-review',
      current_phase: '08-code-review',
      agent_id: 'a8qa',
      outcome: 'completed',
    });
    const closed = constitutional(own, config, '08-code-review');
    expect(closed.met).toBe(false);
    expect(closed.detail).toContain("(the phase's worker): needs a review by an agent other than qa-engineer");
  });
});

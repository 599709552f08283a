// The detection helpers: structured signals first, and text heuristics that leave
// ordinary prompts alone.
import { describe, expect, it } from 'vitest';
import { bundledConfig } from '../../src/config/project-config.js';
import { phaseKeysOf } from '../../src/config/phases.js';
import { normalizePhaseKey } from '../../src/config/phase-keys.js';
import { agentPhases, normalizeAgentName, phaseAgent } from '../../src/config/agents.js';
import { detectPhaseDelegation } from '../../src/detect/phase-delegation.js';
import { isSetupCommand, SETUP_COMMAND_KEYWORDS } from '../../src/detect/setup-commands.js';
import type { HookEvent } from '../../src/events/hook-event.js';

const manifest = bundledConfig('skills-manifest');
const knownPhases = phaseKeysOf(bundledConfig('iteration-requirements'));
const context = (currentPhase?: string) => ({ manifest, knownPhases: () => knownPhases, currentPhase: currentPhase ?? null });

function agentEvent(input: Record<string, unknown>, kind: 'agent' | 'shell' = 'agent'): HookEvent {
  return { name: 'PreToolUse', tool: { name: kind === 'agent' ? 'Agent' : 'Bash', kind, input } };
}

describe('normalizePhaseKey', () => {
  it.each([
    ['13-test-deploy', '12-test-deploy'],
    ['14-production', '13-production'],
    ['15-operations', '14-operations'],
    ['16-upgrade-plan', '15-upgrade-plan'],
    ['16-upgrade-execute', '15-upgrade-execute'],
    ['06-implementation', '06-implementation'],
    [' 01-requirements ', '01-requirements'],
  ])('%s → %s', (key, canonical) => expect(normalizePhaseKey(key)).toBe(canonical));
  it('leaves non-strings alone', () => expect(normalizePhaseKey(undefined)).toBeUndefined());
});

describe('normalizeAgentName', () => {
  it.each([
    ['software-developer', 'software-developer'],
    ['Software_Developer', 'software-developer'],
    ['05-software-developer', 'software-developer'],
    ['developer', 'software-developer'],
    ['isdlc:requirements-analyst', 'requirements-analyst'],
    ['orchestrator', 'sdlc-orchestrator'],
    ['D0', 'discover-orchestrator'],
    ['ql', 'quality-loop-engineer'],
    ['general-purpose', 'general-purpose'],
    ['', ''],
  ])('%s → %s', (name, normalised) => expect(normalizeAgentName(name)).toBe(normalised));
});

describe('agent ↔ phase, from the manifest', () => {
  it('maps a phase agent and its sub-agents to their phase', () => {
    expect(agentPhases(manifest, 'software-developer')).toEqual(['06-implementation']);
    expect(agentPhases(manifest, 'execution-path-tracer')).toEqual(['02-tracing']);
    expect(agentPhases(manifest, 'upgrade-engineer')).toEqual(['15-upgrade-plan', '15-upgrade-execute']);
  });
  it('delegates each phase to its first listed agent', () => {
    expect(phaseAgent(manifest, '02-impact-analysis')).toBe('impact-analysis-orchestrator');
    expect(phaseAgent(manifest, '05-test-strategy')).toBe('test-design-engineer');
    expect(phaseAgent(manifest, '13-test-deploy')).toBe('deployment-engineer-staging');
  });
  it('gives every phase of the bundled config an agent', () => {
    for (const phase of knownPhases) expect(phaseAgent(manifest, phase), phase).toBeTruthy();
  });
});

describe('isSetupCommand', () => {
  it.each(['/isdlc status', 'isdlc discover --deep', 'Run `/isdlc init` for this repo', '/discover', 'status', 'Project setup.', '/isdlc configure-cloud'])(
    'recognises %j',
    (text) => expect(isSetupCommand(text)).toBe(true),
  );

  it.each([
    'Fix the status code returned by /api/export',
    'reinstall the dependencies and run the tests',
    'initialize the cache before the first request',
    'Check the install instructions in README.md',
    'the constitution article on security applies here',
    'set up the mocks in src/setup.ts',
    'discover which module renders the button',
    'A new project page needs a CSV export',
    'cat /etc/init.d/nginx',
    '',
  ])('leaves %j alone', (text) => expect(isSetupCommand(text)).toBe(false));

  it('knows the setup keyword list', () => {
    expect(SETUP_COMMAND_KEYWORDS).toEqual([
      'discover',
      'constitution',
      'init',
      'setup',
      'configure',
      'configure-cloud',
      'new project',
      'project setup',
      'install',
      'status',
    ]);
  });
});

describe('detectPhaseDelegation', () => {
  it.each([
    ['subagent_type of a phase agent', { subagent_type: 'software-developer' }, '06-implementation', 'subagent_type'],
    [
      'subagent_type even when the prompt mentions status',
      { subagent_type: 'software-developer', prompt: '/isdlc status first' },
      '06-implementation',
      'subagent_type',
    ],
    ['an agent named in the prompt', { prompt: 'Act as the system-designer for this feature' }, '04-design', 'agent-name-in-text'],
    ['a phase named in the description', { description: 'Phase 05-test-strategy', subagent_type: 'general-purpose' }, '05-test-strategy', 'phase-key-in-text'],
    ['a legacy phase key named as a phase', { description: 'phase: 13-test-deploy' }, '12-test-deploy', 'phase-key-in-text'],
  ])('detects %s', (_label, input, phase, signal) => {
    const detected = detectPhaseDelegation(agentEvent(input), context());
    expect(detected).toMatchObject({ isDelegation: true, targetPhase: phase, signal });
  });

  it.each([
    ['a general-purpose agent with an ordinary prompt', { subagent_type: 'general-purpose', prompt: 'Find the failing test and explain it' }],
    ['the orchestrator', { subagent_type: 'sdlc-orchestrator', prompt: 'advance the gate' }],
    ['a discover agent', { subagent_type: 'architecture-analyzer' }],
    ['a setup command', { prompt: '/isdlc discover, then hand the report to the solution-architect' }],
    ['a phase key in passing', { prompt: 'Compare with docs/06-implementation.md' }],
    ['a phase-like key that is no phase', { description: 'phase 99-launch' }],
    ['agent names inside longer words', { prompt: 'the pre-software-developer-review checklist' }],
  ])('does not treat %s as a phase delegation', (_label, input) => {
    expect(detectPhaseDelegation(agentEvent(input), context()).isDelegation).toBe(false);
  });

  it('picks the current phase for an agent that owns several', () => {
    expect(detectPhaseDelegation(agentEvent({ subagent_type: 'upgrade-engineer' }), context('15-upgrade-execute')).targetPhase).toBe('15-upgrade-execute');
    expect(detectPhaseDelegation(agentEvent({ subagent_type: 'upgrade-engineer' }), context('01-requirements')).targetPhase).toBe('15-upgrade-plan');
  });

  it('only looks at subagent calls', () => {
    expect(detectPhaseDelegation(agentEvent({ command: 'software-developer' }, 'shell'), context()).isDelegation).toBe(false);
  });

  it('falls back to the text when the manifest lacks the named agent', () => {
    const empty = { ...context(), manifest: { ownership: {} } };
    expect(detectPhaseDelegation(agentEvent({ subagent_type: 'software-developer' }), empty).isDelegation).toBe(false);
    expect(detectPhaseDelegation(agentEvent({ subagent_type: 'x', description: 'phase 06-implementation' }), empty).targetPhase).toBe('06-implementation');
  });
});

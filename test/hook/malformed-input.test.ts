// Bad input never blocks the host's action: `isdlc hook` exits 0 without a deny, and says why in the log.
// (A broken install of isdlc itself is another matter: test/hook/broken-install.test.ts.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionOf, hook, initedProject, lastActivity, tempDir, cli, writeFile } from '../helpers/project.js';

describe('malformed stdin', () => {
  const project = initedProject();
  cli(['workflow', 'start', 'feature', '--dir', project]);

  it.each([
    ['empty input', '', 'empty input'],
    ['only whitespace', '  \n\t', 'empty input'],
    ['text that is not JSON', 'this is not json', 'not JSON'],
    ['truncated JSON', '{"hook_event_name":"PreToolUse","tool_name":"Agent","tool_inp', 'not JSON'],
    ['a JSON array', '[{"hook_event_name":"PreToolUse"}]', 'an array'],
    ['a JSON number', '42', 'not a JSON object'],
    ['JSON without hook_event_name', '{"tool_name":"Agent","tool_input":{"subagent_type":"software-developer"}}', 'no hook_event_name'],
    ['an unknown event', '{"hook_event_name":"BeforeWarp"}', 'unsupported hook event'],
    ['tool_input of the wrong type', '{"hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":"software-developer"}', 'tool_input'],
  ])('%s: exit 0, no deny, reason logged', (_label, input, reason) => {
    const run = hook(project, input);
    expect(run.status).toBe(0);
    expect(decisionOf(run).kind).toBe('allow');
    expect(run.stdout).toBe('');
    const entry = lastActivity(project);
    expect(entry['decision']).toBe('allow');
    expect(String(entry['problem'])).toContain(reason);
  });

  it('10 MB of it: exit 0, no deny, reason logged, the log line kept short', () => {
    const garbage = `{"hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"prompt":"${'x'.repeat(10 * 1024 * 1024)}`;
    const run = hook(project, garbage);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const entry = lastActivity(project);
    expect(String(entry['problem'])).toContain('not JSON');
    expect(JSON.stringify(entry).length).toBeLessThan(5000);
  });

  it('10 MB of valid JSON is still judged (a large Write, say)', () => {
    const payload = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Agent',
      cwd: project,
      tool_input: { subagent_type: 'software-developer', prompt: 'x'.repeat(10 * 1024 * 1024) },
    };
    const run = hook(project, payload);
    expect(run.status).toBe(0);
    expect(decisionOf(run).kind).toBe('deny');
  });

  it('outside any isdlc project: allowed, and said on stderr for the human', () => {
    const dir = tempDir();
    const run = hook(dir, 'not json');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('not JSON');
  });

  it('a corrupt state file: allowed, kept aside, the human told', () => {
    const dir = initedProject();
    writeFile(join(dir, '.isdlc/state.json'), '{"active_workflow": {"type": "feature", "phases": [');
    const run = hook(dir, { hook_event_name: 'PreToolUse', tool_name: 'Agent', cwd: dir, tool_input: { subagent_type: 'software-developer' } });
    expect(run.status).toBe(0);
    const decision = decisionOf(run);
    expect(decision.kind).toBe('allow');
    expect(decision.systemMessage).toContain('state.corrupt-');
  });

  it('a broken monorepo.json: allowed with the problem told (test/hook/broken-install.test.ts has the rest)', () => {
    const dir = initedProject();
    writeFile(join(dir, '.isdlc/monorepo.json'), '{ nope');
    const run = hook(dir, { hook_event_name: 'PreToolUse', tool_name: 'Agent', cwd: dir, tool_input: { subagent_type: 'software-developer' } });
    expect(run.status).toBe(0);
    expect(decisionOf(run).kind).toBe('allow');
    expect(decisionOf(run).systemMessage).toContain('.isdlc/monorepo.json cannot be used');
    expect(String(lastActivity(dir)['install_problems'])).toContain('monorepo.json');
  });
});

// Large strings in a payload are cut to their tail before parsing; everything else is left exactly.
import { describe, expect, it } from 'vitest';
import { bashCall } from '../helpers/payloads.js';
import { decisionOf, hook, initedProject, withoutSandbox } from '../helpers/project.js';
import { shrinkLargeStrings } from '../../src/entry/shrink-payload.js';

const options = { limit: 1000, keep: 200 };
const line = (i: number) => `line ${i}: ✓ "quoted" back\\slash ● done`;
const output = (lines: number) => Array.from({ length: lines }, (_, i) => line(i)).join('\n');

function roundTrip(payload: unknown): { out: Record<string, any>; cut: boolean } {
  const input = Buffer.from(JSON.stringify(payload));
  const shrunk = shrinkLargeStrings(input, options);
  return { out: JSON.parse(shrunk.toString('utf8')), cut: shrunk.length < input.length };
}

describe('shrinking a payload', () => {
  it('leaves a small payload as it is (the same buffer)', () => {
    const input = Buffer.from(JSON.stringify({ hook_event_name: 'Stop', last_assistant_message: 'done' }));
    expect(shrinkLargeStrings(input, options)).toBe(input);
  });

  it('cuts a long output to whole lines from its end, with a marker, and keeps every other field', () => {
    const error = `Exit code 1\n${output(300)}`;
    const { out, cut } = roundTrip({ hook_event_name: 'PostToolUseFailure', tool_input: { command: 'npm test' }, error, is_interrupt: false, duration_ms: 12 });
    expect(cut).toBe(true);
    expect(out['error']).toMatch(/^\[\.\.\. \d+ bytes cut by isdlc; the end follows \.\.\.\]\n/);
    const kept = (out['error'] as string).split('\n').slice(1);
    expect(kept.length).toBeGreaterThan(3);
    expect(error.endsWith(kept.join('\n'))).toBe(true);
    expect(out).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_input: { command: 'npm test' }, is_interrupt: false, duration_ms: 12 });
  });

  it('cuts inside nested objects (a Bash tool_response)', () => {
    const { out } = roundTrip({ tool_response: { stdout: output(300), stderr: 'warn', interrupted: false } });
    expect(out['tool_response'].stdout).toContain('bytes cut by isdlc');
    expect(out['tool_response'].stdout.endsWith(line(299))).toBe(true);
    expect(out['tool_response'].stderr).toBe('warn');
  });

  it('never cuts file contents on their way to Write or Edit', () => {
    const content = output(300);
    const { out, cut } = roundTrip({ tool_name: 'Write', tool_input: { file_path: '/p/.isdlc/state.json', content } });
    expect(cut).toBe(false);
    expect(out['tool_input'].content).toBe(content);
  });

  it('never cuts what the agent asks a tool to do: a shell command padded past the limit stays whole (its head is what counts)', () => {
    const command = `node .isdlc/bin/isdlc.cjs phase skip --reason x; echo "${output(300).replace(/"/g, '')}"`;
    const { out, cut } = roundTrip({ tool_name: 'Bash', tool_input: { command, description: output(300) } });
    expect(cut).toBe(false);
    expect(out['tool_input'].command).toBe(command);
  });

  it('leaves a long single line alone rather than cut inside it', () => {
    const { out, cut } = roundTrip({ error: 'x'.repeat(5000) });
    expect(cut).toBe(false);
    expect(out['error']).toHaveLength(5000);
  });

  it('returns text that is not JSON unchanged', () => {
    const input = Buffer.from(`{"error": "${'y'.repeat(5000)}`);
    expect(shrinkLargeStrings(input, options)).toBe(input);
  });
});

describe('the padding attack, through the hook', () => {
  it('a person-only command followed by 300 KB of padding is still seen and refused', () => {
    const project = withoutSandbox(initedProject());
    // Lines of comments after it: the tail a cut would keep holds nothing but padding.
    const command = `node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation\n${'# padding\n'.repeat(32 * 1024)}`;
    const run = hook(project, bashCall(project, command));
    expect(run.status, run.stderr).toBe(0);
    expect(decisionOf(run)).toMatchObject({ kind: 'deny', reason: expect.stringContaining('isdlc human-only-commands') });
  });
});

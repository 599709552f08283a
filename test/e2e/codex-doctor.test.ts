// `isdlc doctor` knows before any session whether the real Codex (0.171.0) will run isdlc's hooks, and is
// right: where it says "not trusted" Codex skips them (the activity log names no call from it), and
// once the person's config holds what the `/hooks` review writes (through Codex's own config writer),
// doctor says trusted and the hooks run without --dangerously-bypass-hook-trust. Hook by hook, doctor's
// verdict is the one `codex app-server` gives for the same files: after an edit, after a group of the
// person's put before isdlc's, after one is switched off.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listHooks, trustHooks, type ListedHook } from './harness/codex-app-server.js';
import { ensureCodex } from './harness/codex-install.js';
import { call, say, shell } from './harness/codex-script.js';
import { codexProject, runCodex, tomlString, usesCodex, type CodexProject } from './harness/codex-session.js';
import { cli, readJson } from '../helpers/project.js';

usesCodex();

type Finding = { severity: string; what: string; fix?: string };

const HOOKS = '.codex/hooks.json';

function isdlcProject(): CodexProject {
  const project = codexProject({ files: { 'package.json': '{"name":"x","version":"1.0.0","private":true,"scripts":{"test":"node --test"}}\n' } });
  const run = cli(['init', project.dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  return project;
}

/** `isdlc doctor --json` with the person's CODEX_HOME and the pinned `codex` first on PATH. */
function doctor(project: CodexProject): Finding[] {
  const bin = join(project.home, 'bin');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    symlinkSync(ensureCodex(project.version).command, join(bin, 'codex'));
  }
  const run = cli(['doctor', project.dir, '--json'], { env: { CODEX_HOME: project.codexHome, PATH: `${bin}:${process.env['PATH'] ?? ''}` } });
  return (JSON.parse(run.stdout) as { findings: Finding[] }).findings;
}

/** The events doctor says Codex will not run isdlc's hook at: skipped for trust, or switched off. */
function doctorSkips(findings: Finding[]): string[] {
  const events = new Set<string>();
  for (const finding of findings) {
    if (finding.severity !== 'fail') continue;
    if (!finding.what.startsWith("Codex will skip isdlc's hooks at") && !finding.what.includes("switches off isdlc's hooks at")) continue;
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop'])
      if (finding.what.includes(event)) events.add(event);
  }
  return [...events].sort();
}

/** The events Codex itself says it will not run isdlc's hook at. */
async function codexSkips(project: CodexProject): Promise<string[]> {
  const ours = (await listHooks(project)).hooks.filter((hook: ListedHook) => hook.command?.includes('hook --host codex'));
  expect(ours).toHaveLength(6);
  const name = (event: string): string => event[0]!.toUpperCase() + event.slice(1);
  return ours
    .filter((hook) => !hook.enabled || hook.trustStatus !== 'trusted')
    .map((hook) => name(hook.eventName))
    .sort();
}

/** The events of isdlc's hook calls Codex made, as the activity log names them. */
const seenEvents = (project: CodexProject): string[] => {
  const log = join(project.dir, '.isdlc/hook-activity.log');
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event?: string; host?: string })
    .filter((entry) => entry.host === 'codex')
    .map((entry) => String(entry.event));
};

describe("doctor on whether Codex runs isdlc's hooks", () => {
  test('"not trusted": Codex skips them; trusted as /hooks does it: doctor says so and they run without the bypass', async () => {
    const project = isdlcProject();
    expect(doctorSkips(doctor(project))).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    const skippedRun = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('true')), say('Done.')] });
    expect(skippedRun.exitCode, skippedRun.stderr).toBe(0);
    expect(seenEvents(project)).toEqual([]);

    await trustHooks(project);
    const findings = doctor(project);
    expect(doctorSkips(findings)).toEqual([]);
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'ok', what: expect.stringContaining("Codex trusts isdlc's hooks") }));
    const run = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('true')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seenEvents(project)).toEqual(expect.arrayContaining(['SessionStart', 'PreToolUse', 'PostToolUse', 'Stop']));
    expect(doctor(project)).toContainEqual(expect.objectContaining({ severity: 'ok', what: expect.stringContaining("isdlc's hooks ran under Codex") }));
  });

  test("hook by hook, doctor's verdict is Codex's: after an edit, a group put before isdlc's, and one switched off", async () => {
    const project = isdlcProject();
    await trustHooks(project);
    expect(await codexSkips(project)).toEqual([]);
    expect(doctorSkips(doctor(project))).toEqual([]);

    const file = join(project.dir, HOOKS);
    const hooks = readJson<{ hooks: Record<string, any[]> }>(file);
    hooks.hooks['Stop']![0].hooks[0].timeout = 900;
    hooks.hooks['PreToolUse']!.unshift({ matcher: '^Bash$', hooks: [{ type: 'command', command: 'true' }] });
    writeFileSync(file, `${JSON.stringify(hooks, null, 2)}\n`);
    // As switching it off in /hooks would: `enabled = false` beside its trusted hash.
    const person = join(project.codexHome, 'config.toml');
    const table = `[hooks.state.${tomlString(`${file}:session_start:0:0`)}]\n`;
    expect(readFileSync(person, 'utf8')).toContain(table);
    writeFileSync(person, readFileSync(person, 'utf8').replace(table, `${table}enabled = false\n`));

    const expected = ['PreToolUse', 'SessionStart', 'Stop'];
    expect(await codexSkips(project)).toEqual(expected);
    expect(doctorSkips(doctor(project))).toEqual(expected);

    // And Codex does skip them: only PostToolUse of isdlc's runs.
    const run = await runCodex(project, { bypassHookTrust: false, turns: [call(shell('true')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect([...new Set(seenEvents(project))].sort()).toEqual(['PostToolUse', 'UserPromptSubmit']);
  });
});

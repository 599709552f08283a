// The project's `.codex/config.toml` is the person's outside isdlc's blocks, but `[features] hooks = false`
// anywhere in it switches every Codex hook off, isdlc's included. Through the built hook: a change to that
// feature, or a text Codex cannot read, is undone at the next hook call like a change to isdlc's blocks
// (the changed file kept aside); any other change of the person's stays.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliProcess, tempDir, writeJson } from '../../helpers/project.js';

const CONFIG = '.codex/config.toml';

function codexProject(): string {
  const dir = tempDir('isdlc-codex-switch-');
  writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const run = cli(['init', dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  return dir;
}

/** Lines put between isdlc's two blocks (where top-level keys and tables of the person's go), by something other than isdlc. */
function addTheirs(dir: string, toml: string): string {
  const text = readFileSync(join(dir, CONFIG), 'utf8').replace('\n\n# >>> isdlc', `\n\n${toml}\n# >>> isdlc`);
  writeFileSync(join(dir, CONFIG), text);
  return text;
}

const shellCall = (dir: string) =>
  cliProcess(['hook', '--host', 'codex'], {
    cwd: dir,
    input: JSON.stringify({
      session_id: 's',
      turn_id: 't',
      cwd: dir,
      model: 'gpt-5.5',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'c1',
    }),
  });

const keptAside = (dir: string): string[] => readdirSync(join(dir, '.codex')).filter((name) => name.startsWith('config.toml.rejected-'));

describe("the hooks feature in the project's config.toml", () => {
  it.each([
    ['[features] hooks = false', '[features]\nhooks = false\n'],
    ['its older name', '[features]\ncodex_hooks = false\n'],
    ['a dotted key', 'features.hooks = false\n'],
    ['an inline table', 'features = { "hooks" = false }\n'],
    ['a text Codex cannot read', '[features\n'],
  ])('%s is undone at the next hook call, the changed file kept aside', (_what, toml) => {
    const dir = codexProject();
    const before = readFileSync(join(dir, CONFIG), 'utf8');
    addTheirs(dir, toml);
    expect(shellCall(dir).status).toBe(0);
    expect(readFileSync(join(dir, CONFIG), 'utf8')).toBe(before);
    expect(keptAside(dir)).toHaveLength(1);
  });

  it("the person's other settings stay, [features] included", () => {
    const dir = codexProject();
    const theirs = addTheirs(dir, 'model = "gpt-5.5"\n\n[features]\nmulti_agent = false\n');
    expect(shellCall(dir).status).toBe(0);
    expect(readFileSync(join(dir, CONFIG), 'utf8')).toBe(theirs);
    expect(keptAside(dir)).toEqual([]);
  });
});

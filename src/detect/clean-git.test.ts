import { describe, expect, it } from 'vitest';
import { cleanGitArgs, cleanGitEnv } from './clean-git.js';

describe("isdlc's git invocation", () => {
  it('takes no git variable, pager or config from the caller, and reads no system or global config', () => {
    const env = cleanGitEnv({
      PATH: '/usr/bin',
      HOME: '/home/ada',
      GIT_CONFIG_GLOBAL: '/home/ada/planted',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: '/tmp/x',
      git_dir: '/elsewhere',
      GIT_EXTERNAL_DIFF: '/tmp/x',
      PAGER: '/tmp/x',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/ada',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
    });
  });

  it('names the folder and overrides every program-starting setting before the command', () => {
    const args = cleanGitArgs('/p', ['log', '--format=%H']);
    expect(args.slice(-4)).toEqual(['-C', '/p', 'log', '--format=%H']);
    expect(args[0]).toBe('--no-replace-objects');
    const settings = args.filter((_, i) => args[i - 1] === '-c');
    for (const key of ['core.fsmonitor', 'core.hooksPath', 'core.pager', 'log.showSignature', 'gpg.program', 'diff.external']) {
      expect(settings.some((setting) => setting.startsWith(`${key}=`))).toBe(true);
    }
  });
});

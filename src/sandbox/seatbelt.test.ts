// The macOS profile's text (sandbox-exec cannot run on the Linux machines that build and test isdlc).
import { describe, expect, it } from 'vitest';
import { seatbeltInvocation, seatbeltProfile } from './seatbelt.js';

describe('seatbeltProfile', () => {
  it('refuses writes outside the project and the temp folders; inside, to every guarded path, existing or not, and unlinking or making the folders on the way', () => {
    const profile = seatbeltProfile({
      root: '/private/tmp/p',
      targets: ['/private/tmp/p/.isdlc', '/private/tmp/p/.mcp.json', '/private/tmp/p/.agent/settings.local.json'],
      readOnly: ['/private/tmp/p/.isdlc', '/Users/me/shared/mcp.json'],
      pinned: ['/private', '/private/tmp', '/private/tmp/p', '/private/tmp/p/.agent'],
    });
    expect(profile).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write*',
        '  (subpath "/private/tmp/p")',
        '  (subpath "/private/tmp")',
        '  (subpath "/private/var/folders")',
        '  (subpath "/dev")',
        ')',
        '(deny file-write*',
        '  (subpath "/private/tmp/p/.isdlc")',
        '  (subpath "/private/tmp/p/.mcp.json")',
        '  (subpath "/private/tmp/p/.agent/settings.local.json")',
        '  (subpath "/Users/me/shared/mcp.json")',
        ')',
        '(deny file-write-unlink',
        '  (literal "/private")',
        '  (literal "/private/tmp")',
        '  (literal "/private/tmp/p")',
        '  (literal "/private/tmp/p/.agent")',
        ')',
        '(deny file-write-create',
        '  (literal "/private")',
        '  (literal "/private/tmp")',
        '  (literal "/private/tmp/p")',
        '  (literal "/private/tmp/p/.agent")',
        ')',
        '',
      ].join('\n'),
    );
  });

  it('quotes a path with quotes and backslashes as a string literal', () => {
    expect(seatbeltProfile({ root: '/p', targets: ['/p/we"ird\\name'], readOnly: [], pinned: [] })).toContain('(subpath "/p/we\\"ird\\\\name")');
  });

  it('a path both guarded and on the way to another is guarded whole, not only pinned', () => {
    const profile = seatbeltProfile({ root: '/p', targets: ['/p/.git/hooks'], readOnly: ['/p/.git/hooks'], pinned: ['/p', '/p/.git/hooks'] });
    expect(profile).not.toContain('(literal "/p/.git/hooks")');
    expect(profile).toContain('(subpath "/p/.git/hooks")');
  });
});

describe('seatbeltInvocation', () => {
  it("runs the command under /usr/bin/sandbox-exec with the profile inline, the toolchains' caches in the temp folder", () => {
    const run = seatbeltInvocation('(version 1)', { file: '/bin/sh', args: ['-c', 'npm test'], cwd: '/p' });
    expect(run).toMatchObject({ file: '/usr/bin/sandbox-exec', cwd: '/p' });
    expect(run.args.slice(0, 3)).toEqual(['-p', '(version 1)', '/usr/bin/env']);
    expect(run.args).toContain('XDG_CACHE_HOME=/tmp/.isdlc-sandbox-cache');
    expect(run.args.slice(-3)).toEqual(['/bin/sh', '-c', 'npm test']);
  });
});

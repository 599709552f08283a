// isdlc's folder (or its journal) swapped for a link to a folder elsewhere, in a project without a sandbox:
// isdlc deletes nothing, writes no state through the link, and keeps the workflow from moving on until a
// person moves the folder back; ordinary work goes on meanwhile.
import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashPassed, skillCall } from '../helpers/payloads.js';
import { cli, cliProcess, decisionOf, initedProject, withoutSandbox } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

/** Every file under `dir` with its bytes, but the activity log and the code caches (isdlc adds to those wherever they are). */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) out[relative(dir, full)] = 'a link';
      else if (stats.isDirectory()) walk(full);
      else if (name !== 'hook-activity.log' && !name.endsWith('.cache')) out[relative(dir, full)] = readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}

function project(): string {
  const dir = withoutSandbox(initedProject('isdlc-displaced-'));
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
  return dir;
}

/** Each route displaces a folder and returns the folders that now hold isdlc's files. */
const routes: { name: string; link: string; displace: (dir: string) => string[] }[] = [
  {
    name: '.isdlc moved away and a link left in its place',
    link: '.isdlc',
    displace: (dir) => {
      const moved = join(dirname(dir), `${dir.split('/').pop()}-moved`);
      renameSync(join(dir, '.isdlc'), moved);
      symlinkSync(moved, join(dir, '.isdlc'));
      return [moved];
    },
  },
  {
    name: 'the journal moved away and a relative link left in its place',
    link: '.isdlc/journal',
    displace: (dir) => {
      renameSync(join(dir, '.isdlc/journal'), join(dir, 'journal-elsewhere'));
      symlinkSync('../journal-elsewhere', join(dir, '.isdlc/journal'));
      return [join(dir, '.isdlc'), join(dir, 'journal-elsewhere')];
    },
  },
];

describe.each(routes)('$name', ({ link, displace }) => {
  it('deletes nothing, writes no state through the link, closes the gate, and lets ordinary work go on', () => {
    const dir = project();
    const folders = displace(dir);
    const before = folders.map(contents);

    const call = runRegisteredHook(dir, bashPassed(dir, 'ls', ''));
    expect(call.status, call.stderr).toBe(0);
    const ordinary = decisionOf(call);
    expect(ordinary.kind).toBe('allow');
    expect(ordinary.context).toMatch(/isdlc install-integrity: .*is a link to/);
    expect(ordinary.systemMessage).toMatch(/link/);

    const advance = decisionOf(runRegisteredHook(dir, skillCall(dir, 'isdlc', 'advance')));
    expect(advance.kind).toBe('deny');
    expect(advance.reason).toContain('is a link to');

    const gate = cli(['gate', 'check', '--dir', dir]);
    expect(gate.status).toBe(1);
    expect(gate.stdout).toContain('is a link to');
    const complete = cliProcess(['phase', 'complete', '--dir', dir]);
    expect(complete.status).toBe(1);
    const cancel = cli(['workflow', 'cancel', '--reason', 'trying', '--dir', dir]);
    expect(cancel.status).toBe(1);
    expect(cancel.stderr).toContain('does not write through a displaced folder');
    for (const command of [
      ['init', dir],
      ['uninstall', dir, '--purge'],
    ]) {
      const run = cli(command);
      expect(run.status, command.join(' ')).toBe(1);
      expect(run.stderr).toContain('changes nothing through it');
    }

    const doctor = cli(['doctor', dir]);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain(`✗ ${link} is a link to`);
    expect(doctor.stdout).toContain('moves the folder back');

    expect(folders.map(contents)).toEqual(before);
    expect(lstatSync(join(dir, link)).isSymbolicLink()).toBe(true);
  });
});

describe('moved back', () => {
  it('the next call is quiet again, with no incident and nothing lost', () => {
    const dir = project();
    const [moved] = routes[0]!.displace(dir);
    runRegisteredHook(dir, bashPassed(dir, 'ls', ''));
    rmSync(join(dir, '.isdlc'));
    renameSync(moved!, join(dir, '.isdlc'));
    const after = decisionOf(runRegisteredHook(dir, bashPassed(dir, 'ls', '')));
    expect(after.context ?? '').not.toContain('isdlc');
    const run = cli(['status', '--dir', dir, '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ workflow: { type: 'feature', description: 'Export' } });
  });
});

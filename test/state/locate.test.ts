// Which project root and which state file an event or a command works on.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProjectRoot, locateState } from '../../src/state/locate.js';
import { currentPhaseOf } from '../../src/state/current-phase.js';
import { tempDir, writeJson } from '../helpers/project.js';

describe('project root', () => {
  it('is the folder the host names when it names one', () => {
    const root = tempDir();
    expect(findProjectRoot({ hostProjectDir: root, cwd: '/' })).toBe(root);
  });

  it('is otherwise the nearest ancestor of cwd holding .isdlc/', () => {
    const root = tempDir();
    mkdirSync(join(root, '.isdlc'));
    mkdirSync(join(root, 'src/deep/er'), { recursive: true });
    expect(findProjectRoot({ hostProjectDir: undefined, cwd: join(root, 'src/deep/er') })).toBe(root);
  });

  it('is null when nothing says where the project is', () => {
    expect(findProjectRoot({ hostProjectDir: undefined, cwd: tempDir() })).toBeNull();
  });
});

describe('state file in a monorepo', () => {
  function monorepo(): string {
    const root = tempDir();
    writeJson(join(root, '.isdlc/monorepo.json'), {
      version: '1.0.0',
      default_project: 'api-service',
      projects: {
        'api-service': { name: 'api-service', path: 'services/api' },
        'api-admin': { name: 'api-admin', path: 'services/api/admin/' },
        'web-frontend': { name: 'web-frontend', path: './apps/web' },
      },
    });
    return root;
  }

  it('is .isdlc/state.json without monorepo.json', () => {
    const root = tempDir();
    expect(locateState(root, { env: {}, cwd: root, configDirs: ['.isdlc/config'] }).stateFile).toBe(join(root, '.isdlc/state.json'));
  });

  it.each([
    ['ISDLC_PROJECT first', { ISDLC_PROJECT: 'web-frontend' }, 'services/api', 'web-frontend', 'ISDLC_PROJECT'],
    ['the project whose path holds cwd', {}, 'apps/web/src', 'web-frontend', 'cwd'],
    ['the longest such path', {}, 'services/api/admin/routes', 'api-admin', 'cwd'],
    ['not a mere prefix of a name', {}, 'services/api-gateway', 'api-service', 'default_project'],
    ['the default project otherwise', {}, 'docs', 'api-service', 'default_project'],
  ])('chooses %s', (_label, env, cwd, project, chosenBy) => {
    const root = monorepo();
    const location = locateState(root, { env, cwd: join(root, cwd), configDirs: ['.isdlc/config'] });
    expect(location).toMatchObject({ projectId: project, chosenBy, stateFile: join(root, '.isdlc/projects', project, 'state.json') });
  });

  it('says so when ISDLC_PROJECT names no project, and chooses by directory', () => {
    const root = monorepo();
    const location = locateState(root, { env: { ISDLC_PROJECT: '../escape' }, cwd: join(root, 'apps/web'), configDirs: ['.isdlc/config'] });
    expect(location.projectId).toBe('web-frontend');
    expect(location.warning).toContain('ISDLC_PROJECT=../escape');
  });

  it('rejects a monorepo.json that is not a JSON object', () => {
    const root = tempDir();
    writeJson(join(root, '.isdlc/monorepo.json'), ['api']);
    expect(() => locateState(root, { env: {}, cwd: root, configDirs: ['.isdlc/config'] })).toThrow('not a JSON object');
  });
});

describe('current phase', () => {
  it.each([
    [{ active_workflow: { current_phase: '03-architecture' }, current_phase: '01-requirements' }, '03-architecture'],
    [{ active_workflow: { type: 'x' }, current_phase: '01-requirements' }, '01-requirements'],
    [{ active_workflow: { current_phase: '13-test-deploy' } }, '12-test-deploy'],
    [{}, null],
    [null, null],
  ])('%j → %j', (state, phase) => expect(currentPhaseOf(state)).toBe(phase));
});

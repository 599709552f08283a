// Articles as people write them, taken as the constitution's ids: `--article "Article I"` records Article I.
import { describe, expect, it } from 'vitest';
import { articleId } from '../../src/config/constitution.js';
import { cli, initedProjectWithTests, readJson } from '../helpers/project.js';
import { join } from 'node:path';

describe('articleId', () => {
  it.each([
    ['I', 'I'],
    ['iv', 'IV'],
    ['Article I', 'I'],
    ['article ix', 'IX'],
    ['Art. VII', 'VII'],
    ['art.3', 'III'],
    ['4', 'IV'],
    ['9', 'IX'],
    ['12', 'XII'],
    [' X. ', 'X'],
    ['XIV', 'XIV'],
  ])('%s → %s', (written, id) => expect(articleId(written)).toBe(id));
});

describe('constitution record --article as people write it', () => {
  it('"Article I" records Article I, and an article the phase does not need is named as the constitution names it', () => {
    const dir = initedProjectWithTests('isdlc-article-');
    expect(cli(['workflow', 'start', 'fix', '--dir', dir]).status).toBe(0);
    const run = cli(['constitution', 'record', '--article', 'Article I', '--result', 'compliant', '--note', 'criteria present', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    const state = readJson<Record<string, any>>(join(dir, '.isdlc/state.json'));
    expect(state['phases']['01-requirements'].constitutional_validation.articles_checked).toContain('I');
    const wrong = cli(['constitution', 'record', '--article', 'Article XX', '--result', 'compliant', '--dir', dir]);
    expect(wrong.stderr).toContain('does not require Article XX;');
    expect(wrong.stderr).not.toContain('ARTICLE');
  });
});

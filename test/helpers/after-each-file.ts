// Run before every test file (vitest's setupFiles). Test files share their worker's modules (no isolation:
// the suite runs in a fraction of the time), so what a helper module sets up once must be undone per file here.
import { afterAll } from 'vitest';
import { removeTempDirs } from './project.js';

afterAll(removeTempDirs);

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    {
      // The bundle loads Markdown assets as text (esbuild's text loader); do the same under test.
      name: 'markdown-as-text',
      enforce: 'pre',
      transform(code, id) {
        return id.endsWith('.md') ? { code: `export default ${JSON.stringify(code)};`, map: null } : undefined;
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Test files share their worker's modules instead of each loading them again: a fresh module graph per
    // file was a third of the unit tests' time. What a helper sets up per file is undone in after-each-file.ts.
    isolate: false,
    setupFiles: ['test/helpers/after-each-file.ts'],
    // Many tests wait (on a timeout they test, on git, on Claude Code): one file more than there are cores
    // (measured on two cores: the unit tests took 89 s two files at a time, 68 s three at a time).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

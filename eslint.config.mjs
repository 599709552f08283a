// ESLint: typescript-eslint's type-checked recommendations (floating promises, unsafe `any`, unbound
// methods, ...) over the sources, the tests, the benches and the build scripts. Layering is checked apart
// (dependency-cruiser, .dependency-cruiser.cjs); formatting is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.bench-tmp/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Sibling bundles and the libraries only some calls need are required where first used, so a hook
      // call that does not need them never loads them (docs/hot-path.md).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\./', '^yaml$', '^shell-quote$', '^smol-toml$', '^tar$'] }],
      // isdlc reads terminal output: escape and control characters are what those expressions look for.
      'no-control-regex': 'off',
      // A name starting with `_` is left out on purpose (a destructured field taken out of a copy).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The benches, build scripts and configs are plain JavaScript outside the TypeScript project.
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Tests read what isdlc wrote (state, hook answers, settings) as JSON of any shape and assert on it;
    // typing every such read would only restate the assertions.
    files: ['test/**/*.ts', 'src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);

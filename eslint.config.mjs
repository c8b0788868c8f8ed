// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * typescript-eslint's recommended type-checked rules. Turned off, with why:
 * - no-unsafe-*: class-validator DTOs, TypeORM raw rows and supertest bodies are `any` by
 *   nature; typing each access adds noise, not safety (the DTOs are validated at the edge).
 * - unbound-method: jest's expect(obj.method) and Nest's decorators reference methods unbound.
 * - require-await: Nest lifecycle hooks and port implementations are async by contract.
 * - no-unexpected-multiline: Prettier breaks `request(server)[method](path)` across lines on purpose
 *   (eslint-config-prettier turns this rule off for the same reason).
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'libs/client/src/generated/**',
      'test-output/**',
      'coverage/**',
      '.data/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
      'no-unexpected-multiline': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
);

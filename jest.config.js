/**
 * Three depths (house style): unit tests beside the code, integration tests of
 * services on real PostgreSQL, end-to-end tests over HTTP with real signatures.
 * One global setup gives every test a fresh, migrated database: on the server
 * of DATABASE_URL when set, otherwise on an embedded PostgreSQL.
 */
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const common = {
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  testEnvironment: 'node',
  rootDir: __dirname,
};

module.exports = {
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Every response of every end-to-end test is checked against the committed OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/contract-after-each.ts'],
    },
  ],
};

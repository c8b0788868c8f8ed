/**
 * Three depths (house style): unit tests beside the code, integration tests of
 * services on real PostgreSQL, end-to-end tests over HTTP with real signatures.
 * One global setup gives every test a fresh, migrated database: on the server
 * of DATABASE_URL when set, otherwise on an embedded PostgreSQL.
 */
const { compilerOptions } = require('./tsconfig.json');
const fs = require('node:fs');
const path = require('node:path');

/**
 * The high-availability test (test/high-availability.e2e-spec.ts) starts etcd, Patroni and HAProxy: Debian's
 * patroni, etcd-server and haproxy packages, which .ci/run installs. Where they are not installed, npm test
 * leaves that one file out and says so (the file itself fails if it is run without them).
 */
const haPrograms = ['patroni', 'etcd', 'haproxy'];
const haMissing = haPrograms.filter(
  (program) =>
    !(process.env.PATH ?? '')
      .split(path.delimiter)
      .concat(['/usr/sbin'])
      .some((dir) => dir && fs.existsSync(path.join(dir, program))),
);
if (haMissing.length && process.env.PCS_HA_TEST === 'required')
  throw new Error(`PCS_HA_TEST=required: the high-availability test needs ${haMissing.join(', ')} (Debian: patroni etcd-server haproxy)`);
if (haMissing.length && !process.env.JEST_WORKER_ID)
  process.stderr.write(
    `npm test: the high-availability test is left out (${haMissing.join(', ')} not installed; see docs/operations.md)\n`,
  );

/**
 * SWC compiles each file without type checking (tsc does that once, in `npm run lint`), as NestJS's
 * own recipe for Jest does: decorators and their metadata as tsc emits them (legacy decorators,
 * emitDecoratorMetadata), class names kept (Nest and TypeORM read them).
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2022',
    keepClassNames: true,
  },
  // A package's or a library's import is required where it is first used, not when the file loads (SWC's lazy CommonJS):
  // a spec that imports a library's index for one function does not load the whole library's graph (the unit specs: 55 s
  // to 35 s). Relative imports and side-effect imports (reflect-metadata) stay eager.
  module: { type: 'commonjs', lazy: true },
  sourceMaps: true,
};

const common = {
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // tsconfig's paths (`@pcs/<lib>` → libs/<lib>/src), as the build resolves them.
  moduleNameMapper: Object.fromEntries(
    Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias.replace(/[/]/g, '\\/')}$`, `<rootDir>/${target}`]),
  ),
  testEnvironment: 'node',
  rootDir: __dirname,
  // The worker's own database (libs/testing/src/global-setup.ts).
  setupFiles: ['<rootDir>/libs/testing/src/worker-database.ts'],
};

module.exports = {
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  // A guard against a hang, not a measure: workers share the cores, and a spec that starts processes or a browser waits longer.
  testTimeout: 60000,
  // Each worker runs its files on a database of its own. Three on these 2-core machines: the end-to-end files wait on
  // PostgreSQL, browsers and child processes much of the time (measured in clean clones: Jest 513–539 s with three, 644 s
  // with two; CONTRIBUTING). JEST_WORKERS=1 runs one file at a time (a timing question, or a smaller machine).
  maxWorkers: Number(process.env.JEST_WORKERS ?? 3),
  // Test files run in a worker process that is replaced once it holds more than this after a file.
  // Without it, on two cores jest runs every file inside its main process (in band), where what each
  // file leaves behind (TypeORM keeps every entity class it ever saw in a global store, and with it
  // that file's modules) piles up until the heap runs out, some 85 files in.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: haMissing.length
        ? ['/node_modules/', '<rootDir>/test/high-availability\\.e2e-spec\\.ts$']
        : ['/node_modules/'],
      // Node's environment plus one shared API per worker, for the specs that need only its HTTP (test/shared-testbed.ts).
      testEnvironment: '<rootDir>/test/shared-api/environment.ts',
      // Every response of every end-to-end test is checked against the committed OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/contract-after-each.ts'],
    },
  ],
};

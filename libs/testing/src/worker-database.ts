/**
 * Run first in every test file (jest setupFiles): the worker's own copy of
 * the run's migrated database (global-setup.ts made one per worker) becomes
 * TEST_DATABASE_URL, which the apps, the CLI processes and the integration
 * specs a file starts all connect to; TEST_DATABASE_WORKER_NAME names it.
 */
const base = process.env.TEST_DATABASE_URL;
const name = process.env.TEST_DATABASE_NAME;
if (base && name && process.env.TEST_DATABASE_WORKERS && !process.env.TEST_DATABASE_WORKER_NAME) {
  const worker = `${name}_w${process.env.JEST_WORKER_ID ?? '1'}`;
  const url = new URL(base);
  url.pathname = `/${worker}`;
  process.env.TEST_DATABASE_URL = url.toString();
  process.env.TEST_DATABASE_WORKER_NAME = worker;
}

// The dashboard's password hashes at a test cost (libs/dashboard-identity/src/password.ts, hashCost: only
// under NODE_ENV=test, which Jest sets): the suite hashes hundreds; password.spec.ts checks OWASP's cost
// is the default everywhere else and that hashes of either cost verify.
process.env.PASSWORD_HASH_LOG2N ??= '12';

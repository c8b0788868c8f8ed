import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadDotEnv, loadEnvironment, resolveSecretsMasterKey } from '@pcs/config';
import {
  checkServingDatabase,
  mailDirectoryFor,
  ownerRoleAllowed,
  prepareRuntime,
  requireMailTransport,
  resolveDatabase,
  RunningDatabase,
  webhooksAllowLocalhost,
} from '@pcs/database';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DemoCredentials, seedDemoIfEmpty } from './demo-seed';
import { OpsModule } from './ops.module';
import { nodeProcess, Supervisor } from './supervisor';

const log = (line: string) => process.stderr.write(`[start] ${line}\n`);

const APIS = [
  { name: 'payins-api', main: path.resolve(__dirname, '../../payins-api/src/main.js') },
  { name: 'b2b-api', main: path.resolve(__dirname, '../../b2b-api/src/main.js') },
];
const DASHBOARD = { name: 'dashboard', main: path.resolve(__dirname, '../../dashboard/src/main.js') };

/**
 * `npm start`: the database (embedded unless DATABASE_URL is set), its
 * migrations and, on an empty database, the demo seed; then each API in its
 * own process, as they are deployed. The launcher owns the embedded server
 * and stops it once both APIs have exited; it restarts either kind when it
 * dies by itself.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  requireMailTransport(env);
  const runtime = await prepareRuntime(env, log, 'launcher');
  // Its APIs would refuse a role that owns tables (contract §30): said once here, not at each of their restarts.
  await checkServingDatabase(runtime.database.runtimeUrl ?? runtime.database.url, ownerRoleAllowed(env), 'service').catch(
    async (error: unknown) => {
      await runtime.database.stop();
      throw error;
    },
  );
  const settings = runtime.settingsFor(env.PAYINS_API_PORT);

  const ops = await NestFactory.createApplicationContext(OpsModule.forRoot(settings), { logger: false });
  const demo = await seedDemoIfEmpty(ops, env.dataDir).finally(() => ops.close());

  // The owner's URL stays with the launcher, which migrated (contract §30): an API given it would refuse to start.
  const { DATABASE_MIGRATION_URL: _owner, ...inherited } = process.env;
  const childEnv = {
    ...inherited,
    // The runtime role (contract §27): the launcher migrated as the owner, the processes never act as it.
    DATABASE_URL: runtime.database.runtimeUrl ?? runtime.database.url,
    SECRETS_MASTER_KEY: resolveSecretsMasterKey(env).toString('base64'),
    // The APIs see DATABASE_URL (the launcher's embedded server) yet keep the embedded default's .eml folder.
    ...(mailDirectoryFor(env) ? { MAIL_DIRECTORY: mailDirectoryFor(env) as string } : {}),
    // Likewise the embedded default's webhooks to localhost (contract §14), unless set explicitly.
    WEBHOOKS_ALLOW_LOCALHOST: String(webhooksAllowLocalhost(env)),
  };
  // The embedded server (when this launcher started it) and each API are kept running: one that
  // dies is started again after a growing pause (contract §17); only Ctrl-C or SIGTERM ends the service.
  let started: RunningDatabase | null = runtime.database;
  const database = new Supervisor(
    'the embedded PostgreSQL',
    async () => {
      const first = started;
      started = null;
      // Restarted on the same port: the APIs' DATABASE_URL stays right, and their pools reconnect.
      return first ?? resolveDatabase(env, log, { port: Number(new URL(runtime.database.url).port) });
    },
    log,
  );
  await database.run();
  // The dashboard signs with a restricted credential of a business: DASHBOARD_API_KEY/SECRET, or the one the demo seed made (its main reads the file).
  const credentialsFile = path.join(env.dataDir, 'demo-credentials.json');
  const dashboardCan = Boolean(env.DASHBOARD_API_KEY && env.DASHBOARD_API_SECRET) || fs.existsSync(credentialsFile);
  const processes = [...APIS, ...(dashboardCan ? [DASHBOARD] : [])];
  if (!dashboardCan)
    log(
      'the dashboard is not started: set DASHBOARD_API_KEY and DASHBOARD_API_SECRET (a restricted credential of the business: npm run admin -- credentials:create-restricted) to run it',
    );
  const apis = processes.map(({ name, main }) => new Supervisor(name, () => nodeProcess(main, childEnv), log));
  await Promise.all(apis.map((api) => api.run()));

  const urls = [
    { name: 'payins API', url: `http://localhost:${env.PAYINS_API_PORT}` },
    { name: 'B2B API', url: `http://localhost:${env.B2B_API_PORT}` },
  ];
  const dashboardUrl = dashboardCan ? `http://localhost:${env.DASHBOARD_PORT}` : null;
  void whenReady([...urls.map((api) => `${api.url}/health`), ...(dashboardUrl ? [`${dashboardUrl}/sign-in`] : [])]).then((ready) => {
    if (ready && !stopping) process.stdout.write(summary(urls, dashboardUrl, credentialsFile, demo));
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // The APIs first (they close their connections), then the server they used.
    await Promise.all(apis.map((api) => api.stop()));
    await database.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** True once every URL answers 200 (within a minute); false if one never does. */
async function whenReady(urls: string[]): Promise<boolean> {
  for (let i = 0; i < 600; i++) {
    const answers = await Promise.all(
      urls.map((url) =>
        fetch(url).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (answers.every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** What a person needs after `npm start`: where the APIs and their docs are, and the credentials to sign with. */
function summary(
  apis: { name: string; url: string }[],
  dashboardUrl: string | null,
  credentialsFile: string,
  demo: DemoCredentials | null,
): string {
  const lines = [
    '',
    'Payment Collection Service is ready',
    ...apis.map((api) => `  ${api.name.padEnd(11)} ${api.url}   docs ${api.url}/docs`),
    ...(dashboardUrl ? [`  ${'dashboard'.padEnd(11)} ${dashboardUrl}`] : []),
    `  credentials ${credentialsFile}`,
  ];
  if (demo) {
    lines.push(
      '',
      'First start: a demo business and an ACTIVE demo merchant (Uruguay) were created. Sign requests with:',
      `  business  api-key ${demo.business.apiKey}  secret ${demo.business.apiSecret}`,
      `  merchant  api-key ${demo.merchant.apiKey}  secret ${demo.merchant.apiSecret}`,
      ...(demo.dashboard
        ? [
            `  dashboard admin  ${demo.dashboard.email}  password ${demo.dashboard.password}  (first sign-in: an authenticator app's code, then a password of your own)`,
          ]
        : []),
      'They are not printed again; the file above keeps them. The README walks through a payment with them (docs/ describes the rest).',
    );
  }
  return lines.join('\n') + '\n\n';
}

main().catch((error: unknown) => {
  // The reason, not a stack trace (LOG_LEVEL=debug shows where it came from).
  const detail =
    error instanceof Error ? (process.env.LOG_LEVEL === 'debug' ? (error.stack ?? error.message) : error.message) : String(error);
  log(`failed to start: ${detail}`);
  process.exit(1);
});

import './tracing';
import 'reflect-metadata';
import { closeOnSignal, loadDotEnv, loadEnvironment, resolveEarlierMasterKeys, resolveSecretsMasterKey, trustProxyOf } from '@pcs/config';
import { checkServingDatabase, ownerRoleAllowed, refuseMigrationUrl, resolveDatabase } from '@pcs/database';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AUDIT_HEAD_FILE } from '@pcs/dashboard-identity';
import { flushTracing } from '@pcs/observability';
import { closeDashboard, createDashboard, DASHBOARD_DRAIN_MS } from './dashboard';

const log = (line: string) => process.stderr.write(`[dashboard] ${line}\n`);

/**
 * The dashboard in its own process (contract §18): its tables on DATABASE_URL
 * (or the embedded default, which `npm start` runs), the payins API at PAYINS_API_URL, signing with
 * DASHBOARD_API_KEY / DASHBOARD_API_SECRET (a restricted credential of the business, contract §29:
 * `credentials:create-restricted --scope read --scope payments:write --scope merchants:write
 * --scope money:write`) — on the embedded default without them, the restricted credential the first
 * `npm start` wrote for it.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  let apiKey = env.DASHBOARD_API_KEY;
  let apiSecret = env.DASHBOARD_API_SECRET;
  const demoFile = path.join(env.dataDir, 'demo-credentials.json');
  if ((!apiKey || !apiSecret) && fs.existsSync(demoFile)) {
    const demo = JSON.parse(fs.readFileSync(demoFile, 'utf8')) as {
      business: { apiKey: string; apiSecret: string };
      dashboardCredential?: { apiKey: string; apiSecret: string };
    };
    // The restricted credential the seed made for it (contract §29: no secrets:read); an older seed's business credential else.
    ({ apiKey, apiSecret } = demo.dashboardCredential ?? demo.business);
  }
  if (!apiKey || !apiSecret)
    throw new Error('set DASHBOARD_API_KEY and DASHBOARD_API_SECRET: the credential of the business the dashboard serves');
  refuseMigrationUrl(env, 'dashboard');
  const database = await resolveDatabase(env, log);
  // The runtime role of the embedded default, like the APIs (contract §27); never the owner (contract §30).
  const databaseUrl = database.runtimeUrl ?? database.url;
  await checkServingDatabase(databaseUrl, ownerRoleAllowed(env), 'dashboard').catch(async (error: unknown) => {
    await database.stop();
    throw error;
  });
  const app = await createDashboard(
    {
      databaseUrl,
      sessionDatabaseUrl: env.DATABASE_DIRECT_URL,
      payinsApiUrl: (env.PAYINS_API_URL ?? `http://localhost:${env.PAYINS_API_PORT}`).replace(/\/+$/, ''),
      apiKey,
      apiSecret,
      trustProxy: trustProxyOf(env.TRUST_PROXY),
      secretsMasterKey: resolveSecretsMasterKey(env),
      secretsMasterKeyPrevious: resolveEarlierMasterKeys(env)[0] ?? null,
      earlierMasterKeys: resolveEarlierMasterKeys(env).slice(1),
      idleMinutes: env.DASHBOARD_IDLE_MINUTES,
      auditHeadFile: path.join(env.dataDir, AUDIT_HEAD_FILE),
      auditAnchorUrl: env.AUDIT_ANCHOR_URL,
      auditAnchorToken: env.AUDIT_ANCHOR_TOKEN,
    },
    env.LOG_LEVEL,
  );
  await app.listen(env.DASHBOARD_PORT);
  log(`listening on ${await app.getUrl()}`);
  closeOnSignal(async () => {
    await closeDashboard(app, DASHBOARD_DRAIN_MS, log);
    await database.stop();
    await flushTracing();
  }, log);
}

main().catch((error: unknown) => {
  log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

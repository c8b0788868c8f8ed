import { Environment, publicBaseUrlFor, resolveSecretsMasterKey, RuntimeSettings } from '@pcs/config';
import { resolveDatabase } from './connection';
import { RunningDatabase } from './embedded-postgres';
import { migrateDatabase } from './migrate';

export interface PreparedRuntime {
  readonly database: RunningDatabase;
  settingsFor(port: number): RuntimeSettings;
}

/**
 * Everything before an app can serve: the database (embedded by default),
 * its migrations, and the secrets master key.
 */
export async function prepareRuntime(env: Environment, log: (line: string) => void): Promise<PreparedRuntime> {
  const secretsMasterKey = resolveSecretsMasterKey(env);
  const database = await resolveDatabase(env, log);
  try {
    await migrateDatabase(database.url, log);
  } catch (error) {
    await database.stop();
    throw error;
  }
  return {
    database,
    settingsFor: (port) =>
      new RuntimeSettings(
        database.url,
        secretsMasterKey,
        publicBaseUrlFor(env, port),
        env.DATABASE_POOL_SIZE,
        {
          sessionMinutes: env.GATEWAY_SESSION_MINUTES,
          sandboxSettleSeconds: env.SANDBOX_SETTLE_SECONDS,
          sweepSeconds: env.SWEEP_SECONDS,
          reconcileAfterSeconds: env.RECONCILE_AFTER_SECONDS,
        },
        env.IDEMPOTENCY_LEASE_SECONDS,
      ),
  };
}

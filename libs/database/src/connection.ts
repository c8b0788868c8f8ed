import { Environment } from '@pcs/config';
import { EmbeddedOptions, openEmbeddedPostgres, RunningDatabase } from './embedded-postgres';

/**
 * The database to use: DATABASE_URL when set, otherwise the embedded
 * PostgreSQL in DATA_DIR (contract §11).
 */
export async function resolveDatabase(
  env: Environment,
  log: (line: string) => void,
  options: EmbeddedOptions = {},
): Promise<RunningDatabase> {
  // Another's server: this process neither stops nor restarts it.
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {}, exited: new Promise<string>(() => {}) };
  return openEmbeddedPostgres(`${env.dataDir}`, log, options);
}

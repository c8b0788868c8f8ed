import { Environment } from '@pcs/config';
import { openEmbeddedPostgres, RunningDatabase } from './embedded-postgres';

/**
 * The database to use: DATABASE_URL when set, otherwise the embedded
 * PostgreSQL in DATA_DIR (contract §11).
 */
export async function resolveDatabase(env: Environment, log: (line: string) => void): Promise<RunningDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, stop: async () => {} };
  return openEmbeddedPostgres(`${env.dataDir}`, log);
}

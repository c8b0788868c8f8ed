import { openEmbeddedPostgres, RunningDatabase } from '@pcs/database';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

/** A new database for a benchmark: on DATABASE_URL's server, or on an embedded PostgreSQL of its own; dropped by `cleanup`. */
export async function freshDatabase(
  serverUrl: string | undefined,
  log: (line: string) => void,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  let embedded: RunningDatabase | null = null;
  let dataDir: string | null = null;
  if (!serverUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-bench-'));
    fs.chmodSync(dataDir, 0o755);
    embedded = await openEmbeddedPostgres(dataDir, log);
    serverUrl = embedded.url;
  }
  const name = `pcs_bench_${Date.now()}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  log(`database ${name}${embedded ? ' on an embedded PostgreSQL' : " on DATABASE_URL's server"}`);
  return {
    url: url.toString(),
    cleanup: async () => {
      if (process.env.BENCH_KEEP_DATABASE === '1' && !embedded) {
        log(`kept ${name} for inspection (BENCH_KEEP_DATABASE=1)`);
        return;
      }
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      if (embedded) await embedded.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import * as fs from 'node:fs';
import { Client } from 'pg';
import { RunningDatabase } from '../../database/src/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  const name = process.env.TEST_DATABASE_NAME;
  if (serverUrl && name) {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    const workers = Number(process.env.TEST_DATABASE_WORKERS ?? 0);
    for (let worker = 1; worker <= workers; worker++) await admin.query(`DROP DATABASE IF EXISTS ${name}_w${worker} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  const holder = (globalThis as Record<string, unknown>).__PCS_EMBEDDED__ as { embedded: RunningDatabase; dataDir: string } | undefined;
  if (holder) {
    await holder.embedded.stop();
    fs.rmSync(holder.dataDir, { recursive: true, force: true });
  }
}

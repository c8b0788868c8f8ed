import { migrateDatabase } from '@pcs/database';
import * as crypto from 'node:crypto';
import { Client } from 'pg';

/**
 * A migrated database of a spec's own, on this run's server, for what must not touch the shared one
 * (an audit log broken on purpose, every secret sealed again under another key, data a migration
 * meets: `before` stops short of that migration); `drop` removes it.
 */
export async function scratchDatabase(
  prefix: string,
  options: { before?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const database = await emptyDatabase(prefix);
  await migrateDatabase(database.url, () => undefined, options);
  return database;
}

/** An empty database of a spec's own (no migration), on this run's server; `drop` removes it. */
export async function emptyDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const at = new URL(process.env.TEST_DATABASE_SERVER_URL!);
  at.pathname = `/${name}`;
  return { url: at.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** One statement on this run's server as its superuser (databases, roles). */
export async function onServer(sql: string): Promise<void> {
  const server = new Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
  await server.connect();
  try {
    await server.query(sql);
  } finally {
    await server.end();
  }
}

import { Environment, EnvironmentError } from '@pcs/config';
import { Client } from 'pg';
import { CONNECT_TIMEOUT_MS } from './database-unavailable';
import { MIGRATIONS } from './migrations';

/**
 * Migrations are a step of their own (contract §30, PCI DSS 7.2.5): the APIs
 * and the dashboard never hold the owner's URL nor connect as a role that
 * owns tables. Each checks this before it serves; `PCS_ALLOW_OWNER_ROLE=1`
 * (development only) lets one role do everything.
 */
export function ownerRoleAllowed(env: Environment): boolean {
  return env.PCS_ALLOW_OWNER_ROLE === '1';
}

/** Refuses DATABASE_MIGRATION_URL in a serving process's environment (one line, naming the variable). */
export function refuseMigrationUrl(env: Environment, process: string): void {
  if (env.DATABASE_MIGRATION_URL && !ownerRoleAllowed(env))
    throw new EnvironmentError(
      `DATABASE_MIGRATION_URL is set: the ${process} never receives the owner's URL; run npm run migrate with it, then start the ${process} without it (PCS_ALLOW_OWNER_ROLE=1 in development only)`,
    );
}

/**
 * What a serving process finds on its database before it serves: its role owns
 * no table and is no superuser (unless allowed), and every migration of this
 * build is applied (the process applies none: `npm run migrate`). Each refusal
 * is one line naming the role or the migration.
 */
export async function checkServingDatabase(url: string, allowOwner: boolean, process: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // The server going away mid-check fails the query (start-up reports it), not the process through an unhandled 'error'.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const [role] = (
      await client.query<{ me: string; superuser: boolean; owned: string | null }>(
        `SELECT current_user AS me,
                (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
                (SELECT string_agg(t, ', ') FROM (
                   SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE c.relkind IN ('r', 'p') AND pg_get_userbyid(c.relowner) = current_user
                      AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                    ORDER BY c.relname LIMIT 3) owned) AS owned`,
      )
    ).rows;
    if (!allowOwner) {
      if (role.owned)
        throw new EnvironmentError(
          `the database role "${role.me}" owns tables (${role.owned}…): the ${process} connects as the runtime role that owns nothing (DATABASE_URL; PCS_ALLOW_OWNER_ROLE=1 in development only)`,
        );
      if (role.superuser)
        throw new EnvironmentError(
          `the database role "${role.me}" is a superuser: the ${process} connects as the runtime role that owns nothing (DATABASE_URL; PCS_ALLOW_OWNER_ROLE=1 in development only)`,
        );
    }
    const present = (await client.query<{ present: boolean }>(`SELECT to_regclass('migrations') IS NOT NULL AS present`)).rows[0].present;
    const applied = present
      ? new Set((await client.query<{ name: string }>('SELECT name FROM migrations')).rows.map((r) => r.name))
      : new Set();
    const pending = MIGRATIONS.map((migration) => migration.name).filter((name) => !applied.has(name));
    if (pending.length > 0)
      throw new EnvironmentError(
        `the database lacks ${pending.length} migration(s) of this build (${pending[0]}${pending.length > 1 ? ', …' : ''}): run npm run migrate first`,
      );
  } finally {
    await client.end().catch(() => undefined);
  }
}

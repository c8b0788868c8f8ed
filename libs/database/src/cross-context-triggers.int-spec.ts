import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Client } from 'pg';

/**
 * The dependency rules cover imports; a trigger can write another context's
 * table out of their sight (issue 41). Every trigger of the migrated
 * database is read here with its function's source: when the table it fires
 * on and a table its function writes belong to different contexts (a table
 * belongs to the context whose TypeORM entity maps it), the trigger must be
 * named in `.dependency-cruiser.cjs` (DATABASE_CROSSINGS) with its reason.
 */
const root = path.join(__dirname, '..', '..', '..');

function tableContexts(): Map<string, string> {
  const owners = new Map<string, string>();
  const walk = (dir: string, context: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, context);
      else if (entry.name.endsWith('.orm-entity.ts')) {
        for (const [, table] of fs.readFileSync(full, 'utf8').matchAll(/@Entity\(\{ name: '([a-z_]+)' \}\)/g)) owners.set(table, context);
      }
    }
  };
  for (const lib of fs.readdirSync(path.join(root, 'libs'))) {
    const src = path.join(root, 'libs', lib, 'src');
    if (fs.existsSync(src)) walk(src, lib);
  }
  return owners;
}

/** The tables a PL/pgSQL body writes. */
function writtenTables(source: string): string[] {
  const tables = new Set<string>();
  for (const [, table] of source.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)/gi)) tables.add(table.toLowerCase());
  return [...tables];
}

describe('triggers that write across contexts', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
  });
  afterAll(() => client.end());

  it('are all named in the dependency rules, with a reason, and every one named exists', async () => {
    const { rows } = await client.query<{ trigger: string; on_table: string; source: string }>(
      `SELECT t.tgname AS trigger, c.relname AS on_table, p.prosrc AS source
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal AND n.nspname = 'public'`,
    );
    expect(rows.length).toBeGreaterThan(10);
    const owners = tableContexts();
    expect(owners.get('payin')).toBe('payments');
    expect(owners.get('balance_transaction')).toBe('settlement');
    const crossings = rows.flatMap(({ trigger, on_table, source }) => {
      const from = owners.get(on_table);
      return writtenTables(source)
        .map((table) => owners.get(table))
        .filter((to): to is string => to !== undefined && from !== undefined && to !== from)
        .map((to) => ({ trigger, from: from!, to }));
    });
    type Crossing = { trigger: string; from: string; to: string; reason: string };
    const named = (createRequire(__filename)(path.join(root, '.dependency-cruiser.cjs')) as { databaseCrossings: Crossing[] })
      .databaseCrossings;
    const key = (c: { trigger: string; from: string; to: string }) => `${c.trigger}: ${c.from} → ${c.to}`;
    expect([...new Set(crossings.map(key))].sort()).toEqual(named.map(key).sort());
    for (const crossing of named) expect(crossing.reason.length).toBeGreaterThan(40);
  });
});

import { Client } from 'pg';

/**
 * searchTerm must stay fast at a million payers: the planner has to serve it
 * from the trigram index, not by reading every payer. Checked on a realistic
 * spread of rows with the planner's statistics up to date.
 */
describe('payer search on PostgreSQL', () => {
  let client: Client;
  let merchantId: string;

  beforeAll(async () => {
    client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    const business = '7a1c6f1e-0000-4000-8000-000000000001';
    merchantId = '7a1c6f1e-0000-4000-8000-000000000002';
    const [{ country_id }] = (await client.query(`SELECT country_id FROM country WHERE iso3 = 'URY'`)).rows;
    await client.query(`INSERT INTO business (business_id, name) VALUES ($1, 'search load') ON CONFLICT DO NOTHING`, [business]);
    await client.query(
      `INSERT INTO merchant (merchant_id, business_id, country_id, type, merchant_name, status) VALUES ($1, $2, $3, 'SOLE_PROPRIETORSHIP_CORPORATION', 'load', 'ACTIVE') ON CONFLICT DO NOTHING`,
      [merchantId, business, country_id],
    );
    await client.query(
      `INSERT INTO payer (payer_id, business_id, merchant_id, first_name, last_name, email, document_type, document_number)
       SELECT gen_random_uuid(), $1, $2, 'Nombre' || i, 'Apellído' || (i % 997), 'user' || i || '@mail.uy', 'PASSPORT', 'PX' || lpad(i::text, 8, '0')
       FROM generate_series(1, 50000) AS i`,
      [business, merchantId],
    );
    await client.query('ANALYZE payer');
  }, 120_000);
  afterAll(() => client.end());

  it('finds by a fragment, ignoring case and accents', async () => {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM payer WHERE merchant_id = $1 AND deleted_at IS NULL AND search_text LIKE '%' || pcs_search_text($2) || '%'`,
      [merchantId, 'APELLIDO996 USER996@'],
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('plans the search on the trigram index', async () => {
    const { rows } = await client.query(
      `EXPLAIN SELECT payer_id FROM payer WHERE merchant_id = $1 AND deleted_at IS NULL AND search_text LIKE '%' || pcs_search_text($2) || '%' ORDER BY created_at DESC LIMIT 20`,
      [merchantId, 'px00012345'],
    );
    const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('payer_search_trgm_idx');
  });
});

import { Client } from 'pg';
import { migrateDatabase } from './migrate';

describe('migrations on PostgreSQL', () => {
  const url = () => process.env.TEST_DATABASE_URL as string;
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connectionString: url() });
    await client.connect();
  });
  afterAll(() => client.end());

  it('are applied once: a second run, even concurrent, finds nothing to do', async () => {
    const results = await Promise.all([migrateDatabase(url()), migrateDatabase(url())]);
    expect(results).toEqual([[], []]);
  });

  it('seed the reference data the contract describes', async () => {
    const countries = (
      await client.query(
        'SELECT iso3, iso2, iso_numeric, currency, currencies, vat_rates_bp, default_vat_rate_bp FROM country ORDER BY iso3',
      )
    ).rows;
    expect(countries).toEqual([
      {
        iso3: 'ARG',
        iso2: 'AR',
        iso_numeric: 32,
        currency: 'ARS',
        currencies: ['ARS', 'USD'],
        vat_rates_bp: [0, 1050, 2100, 2700],
        default_vat_rate_bp: 2100,
      },
      { iso3: 'BRA', iso2: 'BR', iso_numeric: 76, currency: 'BRL', currencies: ['BRL', 'USD'], vat_rates_bp: [0], default_vat_rate_bp: 0 },
      {
        iso3: 'URY',
        iso2: 'UY',
        iso_numeric: 858,
        currency: 'UYU',
        currencies: ['UYU', 'USD'],
        vat_rates_bp: [0, 1000, 2200],
        default_vat_rate_bp: 2200,
      },
    ]);
    expect((await client.query('SELECT count(*)::int AS n FROM payment_instrument_type')).rows[0].n).toBe(9);
    expect((await client.query('SELECT count(*)::int AS n FROM payment_method')).rows[0].n).toBe(14);
    const combos = (
      await client.query(`
        SELECT c.iso3 || ' ' || m.name || ' ' || t.name AS combo
        FROM country_processor p JOIN country c USING (country_id) JOIN payment_method m USING (payment_method_id)
        JOIN payment_instrument_type t USING (payment_instrument_type_id)`)
    ).rows.map((r: { combo: string }) => r.combo);
    for (const iso3 of ['URY', 'ARG', 'BRA']) {
      expect(combos).toEqual(
        expect.arrayContaining([`${iso3} VISA CREDIT_CARD`, `${iso3} VISA DEBIT_CARD`, `${iso3} MERCADO_PAGO WALLETS`]),
      );
    }
    expect(combos).toEqual(expect.arrayContaining(['URY OCA CREDIT_CARD', 'URY BROU BANK_TRANSFER', 'BRA PIX PIX']));
    expect(combos).not.toContain('URY PIX PIX');
    // Every processor's currencies are currencies its country accepts.
    const mismatched = await client.query(
      `SELECT 1 FROM country_processor p JOIN country c USING (country_id) WHERE NOT (p.currencies <@ c.currencies)`,
    );
    expect(mismatched.rowCount).toBe(0);
  });
});

import { BusinessesModule, BusinessService } from '@pcs/businesses';
import { MerchantService, MerchantsModule } from '@pcs/merchants';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { QueryFailedError } from 'typeorm';
import { EntityColumns } from './joined-read';
import { inTransaction } from './transactions';
import { queryPrepared, setPreparedStatements } from './prepared-statements';

/** Hot statements as named prepared statements, and entities read back from hand-written statements, on PostgreSQL. */
describe('prepared statements and entity columns on PostgreSQL', () => {
  let services: ServiceContext;

  beforeAll(async () => {
    services = await serviceContext([BusinessesModule, MerchantsModule], { poolSize: 1 });
  });
  afterAll(() => services.close());

  const prepared = (text: string) =>
    services.dataSource.query<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE statement = $1`, [text]);

  it('prepares a statement once per connection under a name of its text, in a transaction or not', async () => {
    const { manager } = services.dataSource;
    const text = `SELECT $1::int + 1 AS n /* ${Date.now()} */`;
    expect(await queryPrepared(manager, text, [1])).toEqual([{ n: 2 }]);
    expect(await queryPrepared(manager, text, [41])).toEqual([{ n: 42 }]);
    // One connection in the pool: the statement is prepared on it, once, and the transaction's connection is that one.
    const names = await prepared(text);
    expect(names).toHaveLength(1);
    expect(names[0].name).toMatch(/^pcs_[\w-]{24}$/);
    expect(await inTransaction(services.dataSource, (tx) => queryPrepared(tx, text, [2]))).toEqual([{ n: 3 }]);
    expect(await prepared(text)).toEqual(names);
  });

  it('fails as TypeORM fails (a QueryFailedError with the driver error), and sends statements unnamed when switched off', async () => {
    const { manager } = services.dataSource;
    const failure = await queryPrepared(manager, 'SELECT 1 / $1::int AS n', [0]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toMatchObject({ code: '22012' });
    setPreparedStatements(services.dataSource, false);
    try {
      const text = `SELECT $1::int AS n /* unnamed ${Date.now()} */`;
      expect(await queryPrepared(manager, text, [7])).toEqual([{ n: 7 }]);
      expect(await prepared(text)).toEqual([]);
    } finally {
      setPreparedStatements(services.dataSource, true);
    }
  });

  it('reads an entity back from a hand-written statement exactly as TypeORM reads it', async () => {
    const business = await services.get(BusinessService).create('Entity columns');
    const { merchantId } = await services
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Columns', countryIso3: 'URY', approve: true });
    const { manager } = services.dataSource;
    // Dates, booleans, jsonb, nullable and transformed columns alike.
    const metadata = manager.connection.getMetadata('MerchantOrmEntity');
    const columns = new EntityColumns(manager, metadata.target, 'x_');
    const [row] = await manager.query(`SELECT ${columns.select('m')} FROM merchant m WHERE m.merchant_id = $1`, [merchantId]);
    const read = columns.from(row);
    expect(read).toEqual(await manager.findOne(metadata.target, { where: { merchantId } }));
    expect(read).toBeInstanceOf(metadata.target as new () => unknown);
    expect(columns.from({ x_merchant_id: null })).toBeNull();
  });
});

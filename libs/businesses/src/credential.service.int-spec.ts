import { serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { BusinessesModule } from './businesses.module';
import { BusinessService } from './business.service';
import { CredentialService } from './credential.service';
import { signPayload } from '@pcs/kernel';
import { INestApplicationContext } from '@nestjs/common';

describe('CredentialService on PostgreSQL', () => {
  let services: ServiceContext;
  let context: INestApplicationContext;
  let credentials: CredentialService;
  let businesses: BusinessService;
  let dataSource: DataSource;

  beforeAll(async () => {
    services = await serviceContext([BusinessesModule], { poolSize: 4 });
    context = services.context;
    credentials = context.get(CredentialService);
    businesses = context.get(BusinessService);
    dataSource = services.dataSource;
  });
  afterAll(() => services.close());

  it('stores the secret encrypted, never in plain text', async () => {
    const business = await businesses.create('Encrypted at rest');
    const [row] = await dataSource.query('SELECT * FROM api_credential WHERE api_key = $1', [business.apiKey]);
    expect(JSON.stringify(row)).not.toContain(business.apiSecret);
    expect(row.secret_ciphertext).toMatch(/^v1:/);
    const caller = await credentials.authenticate(business.apiKey, signPayload(business.apiSecret, '{}'), ['{}']);
    expect(caller).toEqual({ credentialId: row.credential_id, businessId: business.businessId, merchantId: null, scopes: null });
  });

  it('enables every active country processor for a new business', async () => {
    const business = await businesses.create('All processors');
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM country_processor WHERE active');
    expect(await businesses.listCountryProcessors(business.businessId)).toHaveLength(count);
  });

  it('serialises concurrent rotations: every old pair gets a grace end, exactly the new ones stay open-ended', async () => {
    const business = await businesses.create('Rotated in parallel');
    const owner = { businessId: business.businessId, merchantId: null };
    const issued = await Promise.all([credentials.rotate(owner, 10), credentials.rotate(owner, 10), credentials.rotate(owner, 10)]);
    const rows: { api_key: string; expires_at: Date | null }[] = await dataSource.query(
      'SELECT api_key, expires_at FROM api_credential WHERE business_id = $1 ORDER BY created_at',
      [business.businessId],
    );
    expect(rows).toHaveLength(4);
    const openEnded = rows.filter((r) => r.expires_at === null).map((r) => r.api_key);
    // Rotations run one after another, so only the last issued pair has no expiry.
    expect(openEnded).toHaveLength(1);
    expect(issued.map((i) => i.apiKey)).toContain(openEnded[0]);
    for (const pair of [business, ...issued]) {
      expect(await credentials.authenticate(pair.apiKey, signPayload(pair.apiSecret, '{}'), ['{}'])).not.toBeNull();
    }
  });

  it('refuses to revoke a key that does not exist', async () => {
    await expect(credentials.revoke('pk_missing')).rejects.toThrow('no credential');
  });

  describe('kept in memory, forgotten when a pair changes', () => {
    let other: ServiceContext;
    beforeAll(async () => {
      other = await serviceContext([BusinessesModule], { poolSize: 2 });
    });
    afterAll(() => other.close());

    const signed = (service: CredentialService, pair: { apiKey: string; apiSecret: string }) =>
      service.authenticate(pair.apiKey, signPayload(pair.apiSecret, '{}'), ['{}']);
    /** Another process hears of a committed change through PostgreSQL's notification: a few milliseconds at most. */
    const refusedSoon = async (service: CredentialService, pair: { apiKey: string; apiSecret: string }) => {
      for (let i = 0; i < 100 && (await signed(service, pair)) !== null; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return signed(service, pair);
    };

    it('stops accepting a pair in every process once its revocation commits: at once here, by the change feed elsewhere', async () => {
      const pair = await businesses.create('Revoked everywhere');
      const there = other.get(CredentialService);
      expect(await signed(credentials, pair)).not.toBeNull();
      expect(await signed(there, pair)).not.toBeNull(); // now kept in the other process's memory
      const reads = jest.spyOn(dataSource.manager, 'findOne');
      expect(await signed(credentials, pair)).not.toBeNull();
      expect(reads).not.toHaveBeenCalled(); // answered from memory
      reads.mockRestore();

      await credentials.revoke(pair.apiKey);
      expect(await signed(credentials, pair)).toBeNull();
      expect(await refusedSoon(there, pair)).toBeNull();
    });

    it('hears of changes made outside the service, by plain SQL, and of rotations in another process', async () => {
      const pair = await businesses.create('Expired by hand');
      const there = other.get(CredentialService);
      expect(await signed(there, pair)).not.toBeNull();
      await dataSource.query(`UPDATE api_credential SET expires_at = now() - interval '1 second' WHERE api_key = $1`, [pair.apiKey]);
      expect(await refusedSoon(there, pair)).toBeNull();

      const rotated = await businesses.create('Rotated elsewhere');
      expect(await signed(there, rotated)).not.toBeNull();
      await credentials.rotate({ businessId: rotated.businessId, merchantId: null }, 0);
      expect(await refusedSoon(there, rotated)).toBeNull();
    });
  });
});

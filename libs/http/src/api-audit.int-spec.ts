import { RuntimeSettings } from '@pcs/config';
import { ApiAuditTrail, AuditEntry, auditKeyOf } from '@pcs/dashboard-identity';
import { isRetryableTransactionFailure, rideInStatement } from '@pcs/database';
import { DomainError } from '@pcs/kernel';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { ApiAudit } from './api-audit.interceptor';

/**
 * The audit entry that rides its change (contract §29), on a real
 * PostgreSQL with TypeORM's own transactions: written once, by the write
 * that carries it or by the COMMIT of the first transaction; given back when
 * what carried it rolls back (a savepoint, a whole transaction); and a
 * transaction whose entry is refused does not commit.
 */
describe('an API audit entry riding its change', () => {
  let services: ServiceContext;
  let audit: ApiAudit;
  const businessId = crypto.randomUUID();

  beforeAll(async () => {
    services = await serviceContext([], { poolSize: 4 });
    const key = Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64');
    // The trail the apps provide (ApiAuditTrail of the dashboard identity) behind the HTTP layer's AuditTrail port.
    audit = new ApiAudit(
      services.dataSource,
      new ApiAuditTrail(services.dataSource, { masterKeyRing: [key] } as unknown as RuntimeSettings),
      'Payins',
    );
    expect(auditKeyOf(key)).toHaveLength(32);
  });
  afterAll(() => services.close());

  const entryOf =
    (action: string) =>
    (created: string | null): AuditEntry => ({
      businessId,
      userId: null,
      email: 'api-key:pk_ride',
      action,
      target: created,
      result: 'succeeded',
    });
  const entries = async (action: string): Promise<{ target: string | null }[]> =>
    services.dataSource.query('SELECT target FROM dashboard_audit WHERE business_id = $1 AND action = $2', [businessId, action]);
  /** A write that carries the waiting entry, as the event recorder's statement does. */
  const carried = async (manager: Parameters<typeof rideInStatement>[0]) => {
    const ride = rideInStatement(manager, 0, 'carried');
    expect(ride).not.toBeNull();
    await manager.query(`WITH ${ride!.cte} SELECT 1`, ride!.values);
    ride!.settle(true);
  };

  it('is written by the COMMIT of the first transaction, once, naming what its work answered', async () => {
    const { written } = await audit.riding(entryOf('commit'), async () => {
      await services.dataSource.transaction(async (manager) => {
        (manager.queryRunner!.data as { result?: unknown }).result = { payerId: 'payer-1' };
        await manager.query('SELECT 1');
      });
      await services.dataSource.transaction((manager) => manager.query('SELECT 1'));
    });
    expect(written).toBe(true);
    expect(await entries('commit')).toEqual([{ target: 'payer-1' }]);
  });

  it('comes back when a savepoint that carried it rolls back, and the COMMIT writes it', async () => {
    const { written } = await audit.riding(entryOf('savepoint'), () =>
      services.dataSource.transaction(async (manager) => {
        await manager
          .transaction(async (inner) => {
            await carried(inner);
            throw new Error('the savepoint rolls back');
          })
          .catch(() => undefined);
        await manager.query('SELECT 1');
      }),
    );
    expect(written).toBe(true);
    expect(await entries('savepoint')).toEqual([{ target: null }]);
  });

  it('comes back when a whole transaction that carried it rolls back (a deadlock’s retry), and is written by the next', async () => {
    const { written } = await audit.riding(entryOf('retry'), async () => {
      await services.dataSource
        .transaction(async (manager) => {
          await carried(manager);
          throw new Error('deadlock detected');
        })
        .catch(() => undefined);
      await services.dataSource.transaction((manager) => carried(manager));
    });
    expect(written).toBe(true);
    expect(await entries('retry')).toEqual([{ target: 'carried' }]);
  });

  it('rolls back the transaction whose entry the database refuses: 503 AUDIT_UNAVAILABLE, nothing committed', async () => {
    const marker = crypto.randomUUID();
    const refusing = (created: string | null): AuditEntry => ({ ...entryOf('refused')(created), businessId: 'not-a-uuid' });
    const failure = await audit
      .riding(refusing, () =>
        services.dataSource.transaction((manager) =>
          manager.query('INSERT INTO signed_request (api_key, signature, expires_at) VALUES ($1, $2, now())', [
            'pk_ride',
            marker.replace(/-/g, '').padEnd(64, '0'),
          ]),
        ),
      )
      .catch((error: unknown) => error as { failure: unknown; written: boolean });
    expect(failure).toMatchObject({ written: false });
    expect((failure as { failure: unknown }).failure).toBeInstanceOf(DomainError);
    expect((failure as { failure: DomainError }).failure.code).toBe('AUDIT_UNAVAILABLE');
    expect(isRetryableTransactionFailure((failure as { failure: unknown }).failure)).toBe(false);
    expect(await services.dataSource.query('SELECT 1 FROM signed_request WHERE api_key = $1', ['pk_ride'])).toEqual([]);
  });
});

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GatewayAccountOrmEntity } from './gateway-account.orm-entity';
import { Transaction } from '@pcs/kernel';
import { ChangeFeed, InvalidatedCache, managerOf, transactionOf } from '@pcs/database';

/** A gateway account row as stored: secrets sealed (the service seals and opens them). */
export type GatewayAccountRow = GatewayAccountOrmEntity;

/**
 * Gateway accounts in PostgreSQL. Where a merchant routes each payment
 * method is read by every payment, so the merchant's routes are kept in
 * memory and forgotten when any of its accounts changes (change feed, and at
 * once after this process commits a change). Whose account collects
 * (`fundsFlowOf`) is money, and is always read.
 */
@Injectable()
export class GatewayAccountRepository {
  private readonly routes: InvalidatedCache<ReadonlyArray<{ provider: string; methods: readonly string[] }>>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    changes: ChangeFeed,
  ) {
    this.routes = new InvalidatedCache(changes, 'merchant-gateway-accounts', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  find(merchantId: string, provider: string, tx: Transaction = transactionOf(this.dataSource.manager)): Promise<GatewayAccountRow | null> {
    return managerOf(tx).findOneBy(GatewayAccountOrmEntity, { merchantId, provider });
  }

  /** Every account's sealed credentials sealed again (`reseal` takes each and its associated data), rows locked in the caller's transaction; how many. */
  async resealAll(
    tx: Transaction,
    reseal: (sealed: string, field: { merchantId: string; provider: string; field: string }) => string,
  ): Promise<number> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ merchant_id: string; provider: string; secrets_sealed: Record<string, string> }[]>(
      'SELECT merchant_id, provider, secrets_sealed FROM gateway_account ORDER BY merchant_id, provider FOR UPDATE',
    );
    for (const row of rows) {
      const resealed = Object.fromEntries(
        Object.entries(row.secrets_sealed).map(([field, sealed]) => [
          field,
          reseal(sealed, { merchantId: row.merchant_id, provider: row.provider, field }),
        ]),
      );
      await manager.query('UPDATE gateway_account SET secrets_sealed = $3 WHERE merchant_id = $1 AND provider = $2', [
        row.merchant_id,
        row.provider,
        JSON.stringify(resealed),
      ]);
    }
    return rows.length;
  }

  /** The provider the merchant routes a payment method to, if any (one at most: connect keeps them apart). */
  async routeOf(
    merchantId: string,
    paymentMethod: string,
    tx: Transaction = transactionOf(this.dataSource.manager),
  ): Promise<string | null> {
    const manager = managerOf(tx);
    const routes = await this.routes.get(
      merchantId,
      async () => {
        const rows = await manager.query<{ provider: string; payment_methods: string[] }[]>(
          `SELECT provider, payment_methods FROM gateway_account WHERE merchant_id = $1 ORDER BY provider`,
          [merchantId],
        );
        return rows.map((row) => ({ provider: row.provider, methods: row.payment_methods }));
      },
      !manager.queryRunner?.isTransactionActive,
    );
    return routes?.find((route) => route.methods.includes(paymentMethod))?.provider ?? null;
  }

  /** The providers the merchant has an account at. */
  async providersOf(merchantId: string, tx: Transaction = transactionOf(this.dataSource.manager)): Promise<string[]> {
    const rows = await managerOf(tx).query<{ provider: string }[]>(
      `SELECT provider FROM gateway_account WHERE merchant_id = $1 ORDER BY provider`,
      [merchantId],
    );
    return rows.map((row) => row.provider);
  }

  /** Whose account the merchant's account at the provider is; null when it has none. */
  async fundsFlowOf(
    merchantId: string,
    provider: string,
    tx: Transaction = transactionOf(this.dataSource.manager),
  ): Promise<'PLATFORM' | 'MERCHANT' | null> {
    const [row] = await managerOf(tx).query<{ funds_flow: 'PLATFORM' | 'MERCHANT' }[]>(
      `SELECT funds_flow FROM gateway_account WHERE merchant_id = $1 AND provider = $2`,
      [merchantId, provider],
    );
    return row?.funds_flow ?? null;
  }

  /** The merchants with an account at the provider. */
  async merchantsOf(provider: string): Promise<string[]> {
    const rows = await this.dataSource.manager.find(GatewayAccountOrmEntity, {
      where: { provider },
      select: { merchantId: true },
      order: { merchantId: 'ASC' },
    });
    return rows.map((row) => row.merchantId);
  }

  /** The accounts at the provider, with when each was connected. */
  async accountsOf(provider: string): Promise<{ merchantId: string; createdAt: Date }[]> {
    const rows = await this.dataSource.manager.find(GatewayAccountOrmEntity, {
      where: { provider },
      select: { merchantId: true, createdAt: true },
      order: { merchantId: 'ASC' },
    });
    return rows.map((row) => ({ merchantId: row.merchantId, createdAt: row.createdAt }));
  }

  /**
   * Writes the account unless another provider of the merchant routes one of
   * its methods already: the methods so routed, and nothing written. Under a
   * lock on the merchant's accounts, so two connections at once cannot both
   * take a method.
   */
  async put(row: GatewayAccountRow): Promise<string[]> {
    const taken = await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('gateway_account:' || $1, 0))`, [row.merchantId]);
      const taken = await manager.query<{ method: string; provider: string }[]>(
        `SELECT DISTINCT m AS method, provider FROM gateway_account, unnest(payment_methods) AS m
          WHERE merchant_id = $1 AND provider <> $2 AND m = ANY ($3::text[]) ORDER BY 1`,
        [row.merchantId, row.provider, row.paymentMethods],
      );
      if (taken.length > 0) return taken.map((t) => `${t.method} (${t.provider})`);
      await manager.upsert(GatewayAccountOrmEntity, row, ['merchantId', 'provider']);
      return [];
    });
    // Forgotten once committed (a read meanwhile may have kept the old routes); other processes hear it from the change feed.
    if (taken.length === 0) this.routes.invalidate(row.merchantId);
    return taken;
  }

  /** True when there was one to remove. */
  async remove(merchantId: string, provider: string): Promise<boolean> {
    // A transaction of its own: the API's audit entry commits with the removal (contract §29).
    const removed = Boolean(
      (await this.dataSource.transaction((manager) => manager.delete(GatewayAccountOrmEntity, { merchantId, provider }))).affected,
    );
    this.routes.invalidate(merchantId);
    return removed;
  }
}

import { CardTestingGuardSettings, cardTestingGuardOf } from '../domain/card-testing-guard';
import { DunningSettings, dunningOf } from '../domain/dunning';
import { Injectable } from '@nestjs/common';
import { afterCommit, ChangeFeed, InvalidatedCache, isUniqueViolation, managerOf } from '@pcs/database';
import * as crypto from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { DEFAULT_PAYOUT_SCHEDULE, PayoutSchedule } from '../domain/payout-schedule';
import type { InstallmentPolicy } from '../domain/installment-policy';
import type { RoutingRule } from '../domain/routing-rules';
import { MerchantConfiguration } from '../domain/merchant-configuration';
import { MerchantConfigurationRepository, ShortNameTakenError, StoredCountryVat } from '../merchant.repository';
import { configurationFromRows } from './merchant.mapper';
import { MerchantConfigurationOrmEntity, MerchantCountryConfigurationOrmEntity } from './merchant-configuration.orm-entity';
import { asMerchantId, MerchantId, Transaction } from '@pcs/kernel';

/**
 * Merchant configuration in PostgreSQL. A merchant's VAT rates by country are
 * read by every payment intent's creation, so they are kept in memory, with
 * the merchant cache's invalidation (change feed, and at once after this
 * process commits a change).
 */
@Injectable()
export class TypeOrmMerchantConfigurationRepository extends MerchantConfigurationRepository {
  private readonly vatRates: InvalidatedCache<ReadonlyMap<string, number>>;

  constructor(changes: ChangeFeed) {
    super();
    this.vatRates = new InvalidatedCache(changes, 'merchant-vat', { maxEntries: 10_000, ttlMs: 10 * 60_000 });
  }

  async load(tx: Transaction, merchantId: MerchantId, lock = false): Promise<MerchantConfiguration | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantConfigurationOrmEntity, {
      where: { merchantId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) return null;
    return configurationFromRows(row, await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId } }));
  }

  async insert(tx: Transaction, configuration: MerchantConfiguration, now: Date): Promise<void> {
    const manager = managerOf(tx);
    const { countryVats: _countryVats, ...settings } = configuration.snapshot();
    await manager.insert(MerchantConfigurationOrmEntity, {
      ...settings,
      notificationEmails: [...settings.notificationEmails],
      routing: settings.routing.length ? settings.routing.map((rule) => ({ ...rule })) : null,
      cardTestingGuard: null,
      dunning: null,
      updatedAt: now,
    });
  }

  async save(tx: Transaction, configuration: MerchantConfiguration, now: Date, replaceCountryVats: boolean): Promise<void> {
    const manager = managerOf(tx);
    const next = configuration.snapshot();
    try {
      await manager.update(
        MerchantConfigurationOrmEntity,
        { merchantConfigurationId: next.merchantConfigurationId },
        {
          paymentSuccessNotification: next.paymentSuccessNotification,
          paymentErrorNotification: next.paymentErrorNotification,
          notificationEmails: [...next.notificationEmails],
          shortName: next.shortName,
          fastPaymentsEnabled: next.fastPaymentsEnabled,
          payoutSchedule: next.payoutSchedule,
          installmentPolicy: Object.keys(next.installmentPolicy).length ? next.installmentPolicy : null,
          routing: next.routing.length ? next.routing.map((rule) => ({ ...rule })) : null,
          cardTestingGuard: { ...next.cardTestingGuard },
          dunning: { retryDays: [...next.dunning.retryDays], finalStatus: next.dunning.finalStatus },
          updatedAt: now,
        },
      );
    } catch (error) {
      if (isUniqueViolation(error, 'merchant_configuration_short_name_idx')) throw new ShortNameTakenError();
      throw error;
    }
    if (replaceCountryVats) {
      await this.replaceCountryVats(manager, next.merchantId, next.countryVats);
      afterCommit(manager, () => this.vatRates.invalidate(next.merchantId));
    }
  }

  async countryVats(tx: Transaction, merchantId: MerchantId): Promise<StoredCountryVat[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId }, order: { countryId: 'ASC' } });
    return rows.map(({ merchantCountryConfigurationId, countryId, vatRateBp }) => ({
      merchantCountryConfigurationId,
      countryId,
      vatRateBp,
    }));
  }

  async vatRateFor(tx: Transaction, merchantId: MerchantId, countryId: string): Promise<number | null> {
    const manager = managerOf(tx);
    const rates = await this.vatRates.get(
      merchantId,
      async () => {
        const rows = await manager.find(MerchantCountryConfigurationOrmEntity, {
          where: { merchantId },
          select: { countryId: true, vatRateBp: true, merchantCountryConfigurationId: true },
        });
        return new Map(rows.map((row) => [row.countryId, row.vatRateBp]));
      },
      !manager.queryRunner?.isTransactionActive,
    );
    return rates?.get(countryId) ?? null;
  }

  async fastPaymentMerchantId(tx: Transaction, shortName: string): Promise<MerchantId | null> {
    const manager = managerOf(tx);
    const row = await manager
      .createQueryBuilder(MerchantConfigurationOrmEntity, 'c')
      .select('c.merchant_id', 'merchantId')
      .where('lower(c.short_name) = lower(:shortName) AND c.fast_payments_enabled', { shortName })
      .getRawOne<{ merchantId: string }>();
    return row ? asMerchantId(row.merchantId) : null;
  }

  async payoutSchedules(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<Map<MerchantId, PayoutSchedule>> {
    const manager = managerOf(tx);
    if (merchantIds.length === 0) return new Map();
    const rows = await manager.find(MerchantConfigurationOrmEntity, {
      where: { merchantId: In([...merchantIds]) },
      select: { merchantId: true, payoutSchedule: true },
    });
    return new Map(rows.map((row) => [asMerchantId(row.merchantId), row.payoutSchedule ?? DEFAULT_PAYOUT_SCHEDULE]));
  }

  async installmentPolicy(tx: Transaction, merchantId: MerchantId): Promise<InstallmentPolicy> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantConfigurationOrmEntity, { where: { merchantId }, select: { installmentPolicy: true } });
    return row?.installmentPolicy ?? {};
  }

  async cardTestingGuard(tx: Transaction, merchantId: MerchantId): Promise<CardTestingGuardSettings> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantConfigurationOrmEntity, { where: { merchantId }, select: { cardTestingGuard: true } });
    return cardTestingGuardOf(row?.cardTestingGuard);
  }

  async dunning(tx: Transaction, merchantId: MerchantId): Promise<DunningSettings> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantConfigurationOrmEntity, { where: { merchantId }, select: { dunning: true } });
    return dunningOf(row?.dunning);
  }

  async routing(tx: Transaction, merchantId: MerchantId): Promise<RoutingRule[]> {
    const manager = managerOf(tx);
    const row = await manager.findOne(MerchantConfigurationOrmEntity, { where: { merchantId }, select: { routing: true } });
    return row?.routing ?? [];
  }

  private async replaceCountryVats(
    manager: EntityManager,
    merchantId: MerchantId,
    countryVats: readonly { countryId: string; vatRateBp: number }[],
  ): Promise<void> {
    const existing = await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId } });
    const keep = new Set(countryVats.map((c) => c.countryId));
    const stale = existing.filter((row) => !keep.has(row.countryId));
    if (stale.length > 0) await manager.remove(stale);
    for (const vat of countryVats) {
      const row = existing.find((r) => r.countryId === vat.countryId);
      await manager.save(
        Object.assign(new MerchantCountryConfigurationOrmEntity(), {
          merchantCountryConfigurationId: row?.merchantCountryConfigurationId ?? crypto.randomUUID(),
          merchantId,
          countryId: vat.countryId,
          vatRateBp: vat.vatRateBp,
        }),
      );
    }
  }
}

import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import type { CircuitOpened } from '../routing/processor-circuits';
import { ProcessorHealthRecords, SuccessRate } from '../routing/processor-health.records';
import { Transaction } from '@pcs/kernel';
import { managerOf, transactionOf } from '@pcs/database';

interface RateRow {
  provider: string;
  payment_method: string | null;
  country: string | null;
  merchant_id: string | null;
  ended_1h: string;
  approved_1h: string;
  ended_1d: string;
  approved_1d: string;
}

/** The attempts of the last day that ended, with their method and country (payin_attempt_created_idx keeps it to the day). */
const ENDED = `
  FROM payin p
  JOIN country_processor cp ON cp.country_processor_id = p.country_processor_id
  JOIN payment_method pm ON pm.payment_method_id = cp.payment_method_id
  JOIN country c ON c.country_id = cp.country_id
 WHERE p.transaction_type = 'PAYIN' AND p.gateway IS NOT NULL AND p.created_at > now() - interval '1 day'
   AND p.status IN ('APPROVED', 'REJECTED')`;

const FIGURES = `
  count(*) FILTER (WHERE p.created_at > now() - interval '1 hour') AS ended_1h,
  count(*) FILTER (WHERE p.created_at > now() - interval '1 hour' AND p.status = 'APPROVED') AS approved_1h,
  count(*) AS ended_1d,
  count(*) FILTER (WHERE p.status = 'APPROVED') AS approved_1d`;

function ratesOf(rows: RateRow[]): SuccessRate[] {
  return rows.flatMap((row) =>
    (
      [
        ['1h', Number(row.ended_1h), Number(row.approved_1h)],
        ['1d', Number(row.ended_1d), Number(row.approved_1d)],
      ] as const
    ).map(([window, ended, approved]) => ({
      provider: row.provider,
      paymentMethod: row.payment_method,
      country: row.country,
      merchantId: row.merchant_id,
      window,
      rate: ended === 0 ? null : approved / ended,
      attempts: ended,
    })),
  );
}

@Injectable()
export class TypeOrmProcessorHealthRecords extends ProcessorHealthRecords {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async successRates(transaction: Transaction): Promise<SuccessRate[]> {
    const tx = managerOf(transaction);
    return ratesOf(
      await tx.query<RateRow[]>(
        `SELECT p.gateway AS provider, pm.name AS payment_method, c.iso3 AS country, NULL AS merchant_id, ${FIGURES} ${ENDED}
          GROUP BY p.gateway, pm.name, c.iso3`,
      ),
    );
  }

  async merchantSuccessRates(transaction: Transaction, merchantIds: readonly string[]): Promise<SuccessRate[]> {
    const tx = managerOf(transaction);
    if (merchantIds.length === 0) return [];
    return ratesOf(
      await tx.query<RateRow[]>(
        `SELECT p.gateway AS provider, NULL AS payment_method, NULL AS country, p.merchant_id::text AS merchant_id, ${FIGURES} ${ENDED}
            AND p.merchant_id = ANY ($1::uuid[])
          GROUP BY p.gateway, p.merchant_id`,
        [merchantIds],
      ),
    );
  }

  async merchantMethodSuccessRates(transaction: Transaction, merchantIds: readonly string[]): Promise<SuccessRate[]> {
    const tx = managerOf(transaction);
    if (merchantIds.length === 0) return [];
    return ratesOf(
      await tx.query<RateRow[]>(
        `SELECT p.gateway AS provider, pm.name AS payment_method, c.iso3 AS country, p.merchant_id::text AS merchant_id, ${FIGURES} ${ENDED}
            AND p.merchant_id = ANY ($1::uuid[])
          GROUP BY p.gateway, pm.name, c.iso3, p.merchant_id
          ORDER BY p.merchant_id, p.gateway, pm.name, c.iso3`,
        [merchantIds],
      ),
    );
  }

  async merchantsOf(transaction: Transaction, businessId: string): Promise<string[]> {
    const tx = managerOf(transaction);
    const rows = await tx.query<{ merchant_id: string }[]>(
      `SELECT merchant_id FROM merchant WHERE business_id = $1 AND deleted_at IS NULL ORDER BY created_at, merchant_id`,
      [businessId],
    );
    return rows.map((row) => row.merchant_id);
  }

  async recordDegraded(transaction: Transaction, opened: CircuitOpened): Promise<void> {
    const tx = managerOf(transaction);
    const [merchant] = await tx.query<{ business_id: string }[]>(`SELECT business_id FROM merchant WHERE merchant_id = $1`, [
      opened.merchantId,
    ]);
    if (!merchant) return;
    await this.events.record(transactionOf(tx), {
      type: 'processor.degraded',
      businessId: merchant.business_id,
      merchantId: opened.merchantId,
      subjectId: opened.merchantId,
      object: {
        provider: opened.provider,
        merchantId: opened.merchantId,
        state: 'OPEN',
        openedAt: opened.openedAt.toISOString(),
        until: opened.until.toISOString(),
        reason: opened.reason,
      },
      at: opened.openedAt,
    });
  }
}

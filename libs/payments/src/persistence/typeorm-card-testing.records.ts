import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import {
  AttemptOrigin,
  CardTestingBlock,
  CardTestingCounts,
  CardTestingPage,
  CardTestingReason,
  CardTestingRecords,
  CardTestingScope,
  cardTestingBlockObject,
} from '../card-testing/card-testing.records';
import { Transaction } from '@pcs/kernel';
import { managerOf, transactionOf } from '@pcs/database';

interface BlockRow {
  card_testing_block_id: string;
  merchant_id: string;
  scope: CardTestingScope;
  subject_key: string;
  reason: CardTestingReason;
  count: number;
  hint: string;
  page: CardTestingPage;
  sale_id: string | null;
  started_at: Date;
  until: Date;
}

interface OriginRow {
  payment_intent_id: string;
  merchant_id: string;
  page: CardTestingPage;
  address_key: string;
  address_hint: string;
  sale_key: string | null;
  sale_id: string | null;
  card_key: string | null;
}

const blockOf = (row: BlockRow): CardTestingBlock => ({
  blockId: row.card_testing_block_id,
  merchantId: row.merchant_id,
  scope: row.scope,
  subjectKey: row.subject_key,
  reason: row.reason,
  count: row.count,
  hint: row.hint,
  page: row.page,
  saleId: row.sale_id,
  startedAt: row.started_at,
  until: row.until,
});

@Injectable()
export class TypeOrmCardTestingRecords extends CardTestingRecords {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async activeBlock(
    transaction: Transaction,
    merchantId: string,
    subjectKeys: readonly string[],
    now: Date,
  ): Promise<CardTestingBlock | null> {
    const tx = managerOf(transaction);
    if (subjectKeys.length === 0) return null;
    const [row] = await tx.query<BlockRow[]>(
      `SELECT * FROM card_testing_block WHERE merchant_id = $1 AND subject_key = ANY($2::text[]) AND until > $3 ORDER BY until DESC LIMIT 1`,
      [merchantId, subjectKeys, now],
    );
    return row ? blockOf(row) : null;
  }

  async recordStart(transaction: Transaction, o: AttemptOrigin, now: Date): Promise<void> {
    const tx = managerOf(transaction);
    await tx.query(
      `WITH origin AS (
         INSERT INTO card_testing_origin (payment_intent_id, merchant_id, page, address_key, address_hint, sale_key, sale_id, card_key, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8)
         ON CONFLICT (payment_intent_id) DO UPDATE
           SET page = EXCLUDED.page, address_key = EXCLUDED.address_key, address_hint = EXCLUDED.address_hint,
               sale_key = EXCLUDED.sale_key, sale_id = EXCLUDED.sale_id, card_key = NULL, at = EXCLUDED.at
       )
       INSERT INTO card_testing_mark (merchant_id, kind, address_key, card_key, sale_key, at) VALUES ($2, 'ATTEMPT', $4, NULL, $6, $8)`,
      [o.paymentIntentId, o.merchantId, o.page, o.addressKey, o.addressHint, o.saleKey, o.saleId, now],
    );
  }

  async recordSandboxCard(transaction: Transaction, o: AttemptOrigin, now: Date): Promise<void> {
    const tx = managerOf(transaction);
    await tx.query(
      `INSERT INTO card_testing_origin (payment_intent_id, merchant_id, page, address_key, address_hint, sale_key, sale_id, card_key, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (payment_intent_id) DO UPDATE SET card_key = EXCLUDED.card_key`,
      [o.paymentIntentId, o.merchantId, o.page, o.addressKey, o.addressHint, o.saleKey, o.saleId, o.cardKey, now],
    );
  }

  async originOf(transaction: Transaction, paymentIntentId: string): Promise<AttemptOrigin | null> {
    const tx = managerOf(transaction);
    const [row] = await tx.query<OriginRow[]>(`SELECT * FROM card_testing_origin WHERE payment_intent_id = $1`, [paymentIntentId]);
    return row
      ? {
          paymentIntentId: row.payment_intent_id,
          merchantId: row.merchant_id,
          page: row.page,
          addressKey: row.address_key,
          addressHint: row.address_hint,
          saleKey: row.sale_key,
          saleId: row.sale_id,
          cardKey: row.card_key,
        }
      : null;
  }

  async sandboxAttempt(transaction: Transaction, reference: string): Promise<{ paymentIntentId: string; merchantId: string } | null> {
    const tx = managerOf(transaction);
    const [row] = await tx.query<{ payment_intent_id: string; merchant_id: string }[]>(
      `SELECT payment_intent_id, merchant_id FROM payin WHERE gateway = 'SANDBOX' AND external_id = $1 AND transaction_type = 'PAYIN' LIMIT 1`,
      [reference],
    );
    return row ? { paymentIntentId: row.payment_intent_id, merchantId: row.merchant_id } : null;
  }

  async recordDecline(
    transaction: Transaction,
    d: { merchantId: string; addressKey: string; cardKey: string | null; saleKey: string | null },
    now: Date,
  ): Promise<void> {
    const tx = managerOf(transaction);
    await tx.query(
      `INSERT INTO card_testing_mark (merchant_id, kind, address_key, card_key, sale_key, at) VALUES ($1, 'DECLINE', $2, $3, $4, $5)`,
      [d.merchantId, d.addressKey, d.cardKey, d.saleKey, now],
    );
  }

  async counts(
    transaction: Transaction,
    merchantId: string,
    s: { addressKey: string; cardKey: string | null; saleKey: string | null },
    since: Date,
  ): Promise<CardTestingCounts> {
    const tx = managerOf(transaction);
    const [row] = await tx.query<{ attempts: number; address_declines: number; card_declines: number; sale_declines: number }[]>(
      `SELECT
         (SELECT count(*)::int FROM card_testing_mark WHERE merchant_id = $1 AND address_key = $2 AND kind = 'ATTEMPT' AND at > $5) AS attempts,
         (SELECT count(*)::int FROM card_testing_mark WHERE merchant_id = $1 AND address_key = $2 AND kind = 'DECLINE' AND at > $5) AS address_declines,
         (SELECT count(*)::int FROM card_testing_mark WHERE merchant_id = $1 AND card_key = $3 AND kind = 'DECLINE' AND at > $5) AS card_declines,
         (SELECT count(*)::int FROM card_testing_mark WHERE merchant_id = $1 AND sale_key = $4 AND kind = 'DECLINE' AND at > $5) AS sale_declines`,
      [merchantId, s.addressKey, s.cardKey, s.saleKey, since],
    );
    return {
      attemptsPerAddress: row.attempts,
      declinesPerAddress: row.address_declines,
      declinesPerCard: row.card_declines,
      declinesPerSale: row.sale_declines,
    };
  }

  async openBlock(transaction: Transaction, b: CardTestingBlock): Promise<boolean> {
    const tx = managerOf(transaction);
    // One block per subject while it lasts: two declines arriving together wait for each other here.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1 || ':' || $2))`, [b.merchantId, b.subjectKey]);
    if (await this.activeBlock(transaction, b.merchantId, [b.subjectKey], b.startedAt)) return false;
    const [merchant] = await tx.query<{ business_id: string }[]>(`SELECT business_id FROM merchant WHERE merchant_id = $1`, [b.merchantId]);
    if (!merchant) return false;
    await tx.query(
      `INSERT INTO card_testing_block (card_testing_block_id, merchant_id, scope, subject_key, reason, count, hint, page, sale_id, started_at, until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [b.blockId, b.merchantId, b.scope, b.subjectKey, b.reason, b.count, b.hint, b.page, b.saleId, b.startedAt, b.until],
    );
    await this.events.record(transactionOf(tx), {
      type: 'card_testing.suspected',
      businessId: merchant.business_id,
      merchantId: b.merchantId,
      subjectId: b.blockId,
      object: cardTestingBlockObject(b),
      at: b.startedAt,
    });
    return true;
  }

  async blocksOf(transaction: Transaction, merchantId: string, since: Date, limit: number): Promise<CardTestingBlock[]> {
    const tx = managerOf(transaction);
    const rows = await tx.query<BlockRow[]>(
      `SELECT * FROM card_testing_block WHERE merchant_id = $1 AND started_at > $2 ORDER BY started_at DESC, card_testing_block_id LIMIT $3`,
      [merchantId, since, limit],
    );
    return rows.map(blockOf);
  }

  async forgetBefore(transaction: Transaction, before: Date): Promise<void> {
    const tx = managerOf(transaction);
    await tx.query(`DELETE FROM card_testing_mark WHERE at < $1`, [before]);
  }
}

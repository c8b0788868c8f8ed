import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Books that equal the processors' money (contract §28).
 *
 * - `payin.refunded_elsewhere`: a refund the merchant settled by other means (a manual refund
 *   confirmed without a processor). Every other approved refund moved money at its processor,
 *   manual ones confirmed at a processor that returns the money (Mercado Pago, dLocal) included:
 *   in PLATFORM flow each is a REFUND balance transaction, written by the approval's trigger.
 *   Before, the trigger skipped every manual refund, so one confirmed at a processor stayed in
 *   the balance and was paid out. Those already approved are read by how their approval was
 *   recorded: a processor's answer ('refunded'), or the merchant's confirmation ('manually
 *   refunded'). Their missing REFUND is booked now: a new entry, drawn like any refund.
 * - `payment_intent.refunded_amount` is exact in any order (the processor's refunds plus ours
 *   that hold their amount): a processor's refund landing while one of ours is pending may take
 *   it past what was received until ours is answered, so only its sign is checked. Intents whose
 *   figure drifted (a clamp lost the excess, then a rejection released ours) are recomputed from
 *   their records.
 * - `payin.processor_checked_on`: dLocal's daily safety net looks each collection still within
 *   its chargeback window up at most once a day, in bounded batches, oldest look first.
 */
export class BooksEqualProcessors1798300000000 implements MigrationInterface {
  name = 'BooksEqualProcessors1798300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payin ADD COLUMN refunded_elsewhere boolean NOT NULL DEFAULT false;
ALTER TABLE payin ADD CONSTRAINT payin_refunded_elsewhere_is_manual CHECK (NOT refunded_elsewhere OR concept_code = 'MANUAL_REFUND');
UPDATE payin SET refunded_elsewhere = true
 WHERE concept_code = 'MANUAL_REFUND' AND status = 'APPROVED' AND external_status IS DISTINCT FROM 'refunded';

CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  charge uuid;
  financing bigint := coalesce(NEW.processor_financing_fee_amount, 0);
BEGIN
  IF NEW.transaction_type = 'PAYIN' AND NEW.funds_flow = 'PLATFORM' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at, financing_fee)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'PAYIN', NEW.received_amount,
            NEW.fee_amount + NEW.fee_tax_amount + financing, NEW.received_amount - NEW.fee_amount - NEW.fee_tax_amount - financing,
            COALESCE(NEW.liquidation_date, at), NEW.transaction_id, NEW.description, at, financing)
    ON CONFLICT (source_id, type, part) DO NOTHING;
  ELSIF NEW.transaction_type = 'PAYIN' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'FEE', 0,
            NEW.fee_amount + NEW.fee_tax_amount, -(NEW.fee_amount + NEW.fee_tax_amount),
            at, NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type, part) DO NOTHING;
  -- A refund that moved money at the processor (ours, the processor's own, a manual one confirmed there): once.
  ELSIF NEW.funds_flow = 'PLATFORM' AND NEW.settles_dispute_id IS NULL AND NOT NEW.refunded_elsewhere
        AND NOT EXISTS (SELECT 1 FROM balance_transaction WHERE source_id = NEW.transaction_id AND type = 'REFUND') THEN
    SELECT transaction_id INTO charge FROM payin
     WHERE payment_intent_id = NEW.payment_intent_id AND transaction_type = 'PAYIN' AND status = 'APPROVED'
     ORDER BY created_at DESC LIMIT 1;
    PERFORM balance_move(NEW.business_id, NEW.merchant_id, NEW.currency, 'REFUND', -NEW.amount, NEW.transaction_id, charge,
                         NEW.description);
  END IF;
  RETURN NULL;
END $$;

-- Manual refunds a processor returned before this migration, which the balance kept: their REFUND now.
DO $$
DECLARE
  r record;
  charge uuid;
BEGIN
  FOR r IN SELECT p.* FROM payin p
            WHERE p.transaction_type = 'REFUND' AND p.concept_code = 'MANUAL_REFUND' AND p.status = 'APPROVED'
              AND NOT p.refunded_elsewhere AND p.funds_flow = 'PLATFORM' AND p.settles_dispute_id IS NULL
              AND NOT EXISTS (SELECT 1 FROM balance_transaction b WHERE b.source_id = p.transaction_id AND b.type = 'REFUND')
            ORDER BY p.created_at
  LOOP
    SELECT transaction_id INTO charge FROM payin
     WHERE payment_intent_id = r.payment_intent_id AND transaction_type = 'PAYIN' AND status = 'APPROVED'
     ORDER BY created_at DESC LIMIT 1;
    PERFORM balance_move(r.business_id, r.merchant_id, r.currency, 'REFUND', -r.amount, r.transaction_id, charge,
                         'manual refund returned by the processor (booked by migration 1798300000000)');
  END LOOP;
END $$;

-- The (local) day the daily reconciliation last looked a collection up at its processor (dLocal publishes no report we
-- can fetch): each is looked up at most once a day while it may still change, the longest unchecked first.
ALTER TABLE payin ADD COLUMN processor_checked_on date;
CREATE INDEX payin_lookup_idx ON payin (merchant_id, gateway, processor_checked_on NULLS FIRST, updated_at)
  WHERE transaction_type = 'PAYIN' AND status = 'APPROVED';

ALTER TABLE payment_intent DROP CONSTRAINT payment_intent_refund_within_received;
ALTER TABLE payment_intent ADD CONSTRAINT payment_intent_refunded_not_negative CHECK (refunded_amount >= 0);
UPDATE payment_intent i SET refunded_amount = held.amount
  FROM (SELECT r.payment_intent_id, sum(r.amount) AS amount FROM payin r
         WHERE r.transaction_type = 'REFUND' AND r.status IN ('APPROVED', 'PENDING', 'SCHEDULED')
         GROUP BY r.payment_intent_id) held
 WHERE held.payment_intent_id = i.payment_intent_id AND i.refunded_amount <> held.amount;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
UPDATE payment_intent SET refunded_amount = least(refunded_amount, received_amount);
ALTER TABLE payment_intent DROP CONSTRAINT payment_intent_refunded_not_negative;
ALTER TABLE payment_intent ADD CONSTRAINT payment_intent_refund_within_received
  CHECK (refunded_amount >= 0 AND refunded_amount <= received_amount);
CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  charge uuid;
  financing bigint := coalesce(NEW.processor_financing_fee_amount, 0);
BEGIN
  IF NEW.transaction_type = 'PAYIN' AND NEW.funds_flow = 'PLATFORM' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at, financing_fee)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'PAYIN', NEW.received_amount,
            NEW.fee_amount + NEW.fee_tax_amount + financing, NEW.received_amount - NEW.fee_amount - NEW.fee_tax_amount - financing,
            COALESCE(NEW.liquidation_date, at), NEW.transaction_id, NEW.description, at, financing)
    ON CONFLICT (source_id, type, part) DO NOTHING;
  ELSIF NEW.transaction_type = 'PAYIN' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'FEE', 0,
            NEW.fee_amount + NEW.fee_tax_amount, -(NEW.fee_amount + NEW.fee_tax_amount),
            at, NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type, part) DO NOTHING;
  ELSIF NEW.funds_flow = 'PLATFORM' AND NEW.settles_dispute_id IS NULL AND NEW.concept_code <> 'MANUAL_REFUND'
        AND NOT EXISTS (SELECT 1 FROM balance_transaction WHERE source_id = NEW.transaction_id AND type = 'REFUND') THEN
    SELECT transaction_id INTO charge FROM payin
     WHERE payment_intent_id = NEW.payment_intent_id AND transaction_type = 'PAYIN' AND status = 'APPROVED'
     ORDER BY created_at DESC LIMIT 1;
    PERFORM balance_move(NEW.business_id, NEW.merchant_id, NEW.currency, 'REFUND', -NEW.amount, NEW.transaction_id, charge,
                         NEW.description);
  END IF;
  RETURN NULL;
END $$;
DROP INDEX payin_lookup_idx;
ALTER TABLE payin DROP COLUMN processor_checked_on;
ALTER TABLE payin DROP CONSTRAINT payin_refunded_elsewhere_is_manual;
ALTER TABLE payin DROP COLUMN refunded_elsewhere;
`);
  }
}

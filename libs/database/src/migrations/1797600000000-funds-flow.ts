import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the money really is (contract §23): each gateway account says whose
 * it is (`PLATFORM`, the business's, which collects and pays its merchants
 * out; `MERCHANT`, the merchant's own, which the processor pays), and every
 * payin, refund and dispute keeps the flow it was approved or opened in.
 *
 * The approval trigger moves the balance by flow: a PLATFORM payin books its
 * PAYIN, a MERCHANT payin one FEE (what the merchant owes: −(fee + tax));
 * a refund moves money in PLATFORM flow only (a refund that settles a lost
 * claim moves none: its dispute's debit took that money already).
 *
 * Existing data: every connection so far becomes MERCHANT (the contract's
 * default: no one ever agreed that the business holds a merchant's account),
 * so what the old model booked for those payins, refunds and disputes is
 * money the business never held. It is not deleted (the ledger is
 * append-only): each such movement is reversed by an ADJUSTMENT of −net
 * (its source the reversed transaction's id, available when the reversed one
 * was, or at once when a payout already swept it), and each approved
 * MERCHANT payin books the FEE it owes. Money not paid out yet nets to the
 * fee; money already paid out becomes a debt the next payouts net. Nobody is
 * paid twice (docs/money.md, "Moving to funds flows").
 */
export class FundsFlow1797600000000 implements MigrationInterface {
  name = 'FundsFlow1797600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE gateway_account ADD COLUMN funds_flow text NOT NULL DEFAULT 'MERCHANT' CHECK (funds_flow IN ('PLATFORM', 'MERCHANT'));

-- A payin's flow (fixed at approval; a refund takes its collection's), where its availability date came from, a refund's
-- origin, the processor's own financing fee, and the lost claim a refund settled (no second debit).
ALTER TABLE payin
  ADD COLUMN funds_flow text NOT NULL DEFAULT 'PLATFORM' CHECK (funds_flow IN ('PLATFORM', 'MERCHANT')),
  ADD COLUMN liquidation_source text CHECK (liquidation_source IN ('PROCESSOR', 'CALENDAR')),
  ADD COLUMN origin text CHECK (origin IN ('API', 'DASHBOARD', 'LINK', 'PROCESSOR')),
  ADD COLUMN processor_financing_fee_amount bigint,
  ADD COLUMN settles_dispute_id uuid;
UPDATE payin SET funds_flow = 'MERCHANT' WHERE transaction_type = 'PAYIN' AND gateway IN ('MERCADO_PAGO', 'DLOCAL');
UPDATE payin r SET funds_flow = 'MERCHANT'
 WHERE r.transaction_type = 'REFUND'
   AND EXISTS (SELECT 1 FROM payin c WHERE c.payment_intent_id = r.payment_intent_id AND c.transaction_type = 'PAYIN'
                                      AND c.status = 'APPROVED' AND c.funds_flow = 'MERCHANT');
UPDATE payin SET liquidation_source = 'CALENDAR' WHERE transaction_type = 'PAYIN' AND status = 'APPROVED';
UPDATE payin SET origin = 'API' WHERE transaction_type = 'REFUND';
-- A processor-side refund is recorded once, whatever the number of notifications (its id derives from the processor's).
CREATE INDEX payin_intent_refund_external_idx ON payin (payment_intent_id, external_id) WHERE transaction_type = 'REFUND';

-- A dispute's flow (its payment's), and whether it is a chargeback or a claim at the processor (Mercado Pago's mediation).
ALTER TABLE dispute ADD COLUMN funds_flow text NOT NULL DEFAULT 'PLATFORM' CHECK (funds_flow IN ('PLATFORM', 'MERCHANT')),
  ADD COLUMN kind text NOT NULL DEFAULT 'CHARGEBACK' CHECK (kind IN ('CHARGEBACK', 'CLAIM'));
UPDATE dispute SET funds_flow = 'MERCHANT' WHERE processor IN ('MERCADO_PAGO', 'DLOCAL');

-- What a processor did that our records do not allow (a refund beyond what was refundable, or of a payment never collected
-- here), found in its news: announced once, and shown by the account's next reconciliation run.
CREATE TABLE processor_finding (
  finding_id  uuid PRIMARY KEY,
  business_id uuid NOT NULL,
  merchant_id uuid NOT NULL,
  gateway     text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('PROCESSOR_OVER_REFUND')),
  external_id varchar(255) NOT NULL,
  ours        jsonb,
  theirs      jsonb,
  found_at    timestamptz NOT NULL,
  run_id      uuid
);
CREATE UNIQUE INDEX processor_finding_once ON processor_finding (gateway, kind, external_id);
CREATE INDEX processor_finding_unreported_idx ON processor_finding (merchant_id, gateway) WHERE run_id IS NULL;

-- Reconciliation, corrected: the totals of each money column, the run that replaced a window's discrepancies, the new kinds,
-- and each discrepancy announced once however often its window is run.
CREATE INDEX dispute_charge_idx ON dispute (charge_id);
ALTER TABLE reconciliation_run ADD COLUMN totals jsonb, ADD COLUMN superseded_by uuid;
CREATE INDEX reconciliation_run_completed_idx ON reconciliation_run (merchant_id, provider, to_date DESC) WHERE status = 'COMPLETED';
ALTER TABLE reconciliation_discrepancy DROP CONSTRAINT reconciliation_discrepancy_kind_check,
  ADD CONSTRAINT reconciliation_discrepancy_kind_check
    CHECK (kind IN ('AMOUNT_MISMATCH', 'FEE_MISMATCH', 'MISSING_HERE', 'MISSING_THERE', 'PROCESSOR_OVER_REFUND', 'DISPUTE_MISMATCH'));
CREATE TABLE reconciliation_announcement (
  merchant_id  uuid NOT NULL,
  provider     text NOT NULL,
  kind         text NOT NULL,
  external_id  varchar(255) NOT NULL,
  announced_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, provider, kind, external_id)
);

ALTER TABLE balance_transaction DROP CONSTRAINT balance_transaction_type_check,
  ADD CONSTRAINT balance_transaction_type_check
    CHECK (type IN ('PAYIN', 'REFUND', 'FEE', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'PAYOUT', 'PAYOUT_FAILURE', 'ADJUSTMENT'));

CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The moment of writing (not the transaction's start): an approval's own time, taken before, is never after it,
  -- so money available at approval lands in the balance's always-available figure.
  at timestamptz := clock_timestamp();
BEGIN
  IF NEW.transaction_type = 'PAYIN' AND NEW.funds_flow = 'PLATFORM' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'PAYIN', NEW.received_amount,
            NEW.fee_amount + NEW.fee_tax_amount, NEW.received_amount - NEW.fee_amount - NEW.fee_tax_amount,
            COALESCE(NEW.liquidation_date, at), NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type) DO NOTHING;
  ELSIF NEW.transaction_type = 'PAYIN' THEN
    -- MERCHANT flow: the processor pays the merchant; the merchant owes our fee, available at once for the next payout to net.
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'FEE', 0,
            NEW.fee_amount + NEW.fee_tax_amount, -(NEW.fee_amount + NEW.fee_tax_amount),
            at, NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type) DO NOTHING;
  ELSIF NEW.funds_flow = 'PLATFORM' AND NEW.settles_dispute_id IS NULL THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'REFUND', -NEW.amount, 0, -NEW.amount,
            at, NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- What the old model booked for money collected into merchants' own accounts, reversed (see the class comment).
INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                 available_on, source_id, description, created_at)
SELECT gen_random_uuid(), bt.business_id, bt.merchant_id, bt.currency, 'ADJUSTMENT', -bt.net, 0, -bt.net,
       CASE WHEN bt.payout_id IS NULL THEN bt.available_on ELSE clock_timestamp() END, bt.balance_transaction_id,
       'funds flow: reverses ' || bt.type || ' ' || bt.source_id || ' (collected in the merchant''s own processor account)',
       clock_timestamp()
  FROM balance_transaction bt
 WHERE bt.net <> 0
   AND ((bt.type IN ('PAYIN', 'REFUND') AND EXISTS (SELECT 1 FROM payin p WHERE p.transaction_id = bt.source_id AND p.funds_flow = 'MERCHANT'))
     OR (bt.type IN ('CHARGEBACK', 'CHARGEBACK_REVERSAL') AND EXISTS (SELECT 1 FROM dispute d WHERE d.dispute_id = bt.source_id
                                                                                                AND d.funds_flow = 'MERCHANT')))
 ORDER BY bt.merchant_id, bt.currency, bt.created_at;
INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                 available_on, source_id, description, created_at)
SELECT gen_random_uuid(), business_id, merchant_id, currency, 'FEE', 0, fee_amount + fee_tax_amount, -(fee_amount + fee_tax_amount),
       clock_timestamp(), transaction_id, description, clock_timestamp()
  FROM payin WHERE transaction_type = 'PAYIN' AND status = 'APPROVED' AND funds_flow = 'MERCHANT'
 ORDER BY merchant_id, currency, created_at;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
BEGIN
  IF NEW.transaction_type = 'PAYIN' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'PAYIN', NEW.received_amount,
            NEW.fee_amount + NEW.fee_tax_amount, NEW.received_amount - NEW.fee_amount - NEW.fee_tax_amount,
            COALESCE(NEW.liquidation_date, at), NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type) DO NOTHING;
  ELSE
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'REFUND', -NEW.amount, 0, -NEW.amount,
            at, NEW.transaction_id, NEW.description, at)
    ON CONFLICT (source_id, type) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
DROP TABLE processor_finding, reconciliation_announcement;
DROP INDEX dispute_charge_idx, reconciliation_run_completed_idx;
ALTER TABLE reconciliation_run DROP COLUMN totals, DROP COLUMN superseded_by;
ALTER TABLE dispute DROP COLUMN funds_flow, DROP COLUMN kind;
DROP INDEX payin_intent_refund_external_idx;
ALTER TABLE payin DROP COLUMN funds_flow, DROP COLUMN liquidation_source, DROP COLUMN origin,
  DROP COLUMN processor_financing_fee_amount, DROP COLUMN settles_dispute_id;
ALTER TABLE gateway_account DROP COLUMN funds_flow;
`);
  }
}

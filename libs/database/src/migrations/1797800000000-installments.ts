import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Installments (contract §25).
 *
 * - The merchant's policy per country in its configuration (null: one installment everywhere).
 * - The plan a collection was paid in: `installments` (1: a single payment), each installment and
 *   what the payer paid in all (with the payer's interest, which is never the merchant's money); the
 *   financing fee the merchant pays for an interest-free plan is the processor's
 *   (`processor_financing_fee_amount`, reported or quoted).
 * - The balance: a PLATFORM collection's net is lowered by that financing fee too, its own column
 *   (`financing_fee`) of the movement's fee.
 * - The sandbox keeps the policy a checkout was opened with and the plan its payer chose.
 */
export class Installments1797800000000 implements MigrationInterface {
  name = 'Installments1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE merchant_configuration ADD COLUMN installment_policy jsonb;
ALTER TABLE payin ADD COLUMN installments smallint NOT NULL DEFAULT 1 CHECK (installments BETWEEN 1 AND 24),
  ADD COLUMN installment_amount bigint, ADD COLUMN payer_total_amount bigint;
ALTER TABLE sandbox_gateway_session ADD COLUMN installment_policy jsonb, ADD COLUMN installments smallint;
ALTER TABLE balance_transaction ADD COLUMN financing_fee bigint NOT NULL DEFAULT 0;
DROP TRIGGER balance_transaction_no_update ON balance_transaction;
CREATE TRIGGER balance_transaction_no_update BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN ((OLD.payout_id IS NULL) = (NEW.payout_id IS NULL)
        OR (NEW.balance_transaction_id, NEW.business_id, NEW.merchant_id, NEW.currency, NEW.type, NEW.amount, NEW.fee, NEW.net,
            NEW.available_on, NEW.source_id, NEW.description, NEW.created_at, NEW.part, NEW.drawn_from, NEW.financing_fee)
           IS DISTINCT FROM
           (OLD.balance_transaction_id, OLD.business_id, OLD.merchant_id, OLD.currency, OLD.type, OLD.amount, OLD.fee, OLD.net,
            OLD.available_on, OLD.source_id, OLD.description, OLD.created_at, OLD.part, OLD.drawn_from, OLD.financing_fee))
  EXECUTE FUNCTION balance_transaction_immutable();

-- Approvals as before, and a PLATFORM collection's fee includes the processor's financing fee (its own column).
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
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  charge uuid;
BEGIN
  IF NEW.transaction_type = 'PAYIN' AND NEW.funds_flow = 'PLATFORM' THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                     available_on, source_id, description, created_at)
    VALUES (gen_random_uuid(), NEW.business_id, NEW.merchant_id, NEW.currency, 'PAYIN', NEW.received_amount,
            NEW.fee_amount + NEW.fee_tax_amount, NEW.received_amount - NEW.fee_amount - NEW.fee_tax_amount,
            COALESCE(NEW.liquidation_date, at), NEW.transaction_id, NEW.description, at)
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
DROP TRIGGER balance_transaction_no_update ON balance_transaction;
CREATE TRIGGER balance_transaction_no_update BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN ((OLD.payout_id IS NULL) = (NEW.payout_id IS NULL)
        OR (NEW.balance_transaction_id, NEW.business_id, NEW.merchant_id, NEW.currency, NEW.type, NEW.amount, NEW.fee, NEW.net,
            NEW.available_on, NEW.source_id, NEW.description, NEW.created_at, NEW.part, NEW.drawn_from)
           IS DISTINCT FROM
           (OLD.balance_transaction_id, OLD.business_id, OLD.merchant_id, OLD.currency, OLD.type, OLD.amount, OLD.fee, OLD.net,
            OLD.available_on, OLD.source_id, OLD.description, OLD.created_at, OLD.part, OLD.drawn_from))
  EXECUTE FUNCTION balance_transaction_immutable();
ALTER TABLE balance_transaction DROP COLUMN financing_fee;
ALTER TABLE sandbox_gateway_session DROP COLUMN installment_policy, DROP COLUMN installments;
ALTER TABLE payin DROP COLUMN installments, DROP COLUMN installment_amount, DROP COLUMN payer_total_amount;
ALTER TABLE merchant_configuration DROP COLUMN installment_policy;
`);
  }
}

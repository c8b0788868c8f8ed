import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts that can be trusted (contract §24, correcting §19).
 *
 * - A payout claims what it swept only while it pays it: a FAILED, CANCELED
 *   or RETURNED payout releases its transactions (their payout_id back to
 *   null, the one update besides the sweep that the ledger allows, and only
 *   for such a payout), and its PAYOUT_FAILURE carries its own id, so that
 *   the pair nets to zero inside it and the released money is swept by the
 *   next payout. RETURNED is new: a bank returned a payout it had paid.
 * - Draws on pending money: a refund or a dispute's debit takes what is still
 *   PENDING of its payment's net first (rows booked at the payin's
 *   availableOn and marked `drawn_from` its PAYIN row), the rest at once. A
 *   movement may so be two rows of one source and type: `part` numbers them,
 *   and "once per source and type" becomes once per source, type and part.
 *   balance_move() is that rule, used by the payin trigger (refunds) and the
 *   settlement context (disputes), serialised per payment.
 * - Manual refunds (money the merchant returned by other means) move no
 *   balance money.
 * - Disputes cost what processors charge: DISPUTE_FEE, from the catalog's
 *   dispute_fee (per processor and currency; none is 0).
 * - A country processor's minimum amount per currency (catalog).
 * - Bank files that cannot pay twice: payout_batch keeps each batch's files
 *   (content and checksum) written in the transaction that marks its payouts
 *   exported; a payout joins at most one batch, once. The debtor account of
 *   a business's CNAB 240 remittances (payouts:debtor-account:set).
 * - A new settlement account waits: hold_until on the account (and the
 *   first scheduled payout the hold made wait), ended by an admin's
 *   confirmation.
 */
export class PayoutsTrusted1797700000000 implements MigrationInterface {
  name = 'PayoutsTrusted1797700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
-- Bank returns, and the batch a bank-file payout was exported in (once).
ALTER TABLE payout DROP CONSTRAINT payout_status_check,
  ADD CONSTRAINT payout_status_check CHECK (status IN ('PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED', 'RETURNED')),
  ADD COLUMN batch_id uuid,
  ADD COLUMN returned_at timestamptz;

CREATE TABLE payout_batch (
  batch_id       uuid PRIMARY KEY,
  business_id    uuid NOT NULL,
  bank_id        uuid NOT NULL REFERENCES bank,
  -- The business's batches in order: the CNAB file's NSA (Número Sequencial do Arquivo) and the files' names.
  sequence       integer NOT NULL CHECK (sequence > 0),
  payout_count   integer NOT NULL CHECK (payout_count > 0),
  totals         jsonb NOT NULL,
  csv            text NOT NULL,
  csv_sha256     char(64) NOT NULL,
  cnab240        text,
  cnab240_sha256 char(64),
  created_at     timestamptz NOT NULL,
  -- The last time its files were written (null: recorded, never written: a crash between the two).
  written_at     timestamptz,
  CONSTRAINT payout_batch_sequence UNIQUE (business_id, sequence),
  CONSTRAINT payout_batch_cnab CHECK ((cnab240 IS NULL) = (cnab240_sha256 IS NULL))
);
ALTER TABLE payout ADD CONSTRAINT payout_batch_fk FOREIGN KEY (batch_id) REFERENCES payout_batch;
CREATE INDEX payout_batch_idx ON payout (batch_id) WHERE batch_id IS NOT NULL;
-- A payout is in at most one batch: once set, its batch never changes.
CREATE FUNCTION payout_batch_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0005', MESSAGE = 'payout ' || OLD.payout_id || ' is already in batch ' || OLD.batch_id;
END $$;
CREATE TRIGGER payout_batch_once BEFORE UPDATE OF batch_id ON payout FOR EACH ROW
  WHEN (OLD.batch_id IS NOT NULL AND NEW.batch_id IS DISTINCT FROM OLD.batch_id) EXECUTE FUNCTION payout_batch_once();

-- The account a business's CNAB 240 remittances debit (FEBRABAN's "empresa"): one per business and country.
CREATE TABLE payout_debtor_account (
  business_id   uuid NOT NULL,
  country       char(3) NOT NULL CHECK (country IN ('BRA')),
  bank_id       uuid NOT NULL REFERENCES bank,
  document      varchar(14) NOT NULL,
  name          varchar(30) NOT NULL,
  agreement     varchar(20) NOT NULL DEFAULT '',
  branch        varchar(5) NOT NULL,
  branch_digit  varchar(1) NOT NULL DEFAULT '',
  account       varchar(12) NOT NULL,
  account_digit varchar(1) NOT NULL,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (business_id, country)
);

-- A settlement account set or changed after the first waits before payouts go to it; an admin may confirm it earlier.
ALTER TABLE settlement_account ADD COLUMN hold_until timestamptz,
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN confirmed_by varchar(320),
  -- The first scheduled payout the hold made wait: made on the first run after the hold ends.
  ADD COLUMN payout_waiting_since date,
  -- A payout a bank gave back from this very account: none goes to it again until it is changed or an admin confirms it.
  ADD COLUMN returned_payout_id uuid REFERENCES payout;

-- The catalog: what a dispute costs at each processor per currency (minor units; none: 0), and each country processor's
-- minimum amount per currency.
CREATE TABLE dispute_fee (
  processor  text NOT NULL CHECK (processor IN ('SANDBOX', 'MERCADO_PAGO', 'DLOCAL')),
  currency   char(3) NOT NULL,
  amount     bigint NOT NULL CHECK (amount >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (processor, currency)
);
ALTER TABLE country_processor ADD COLUMN minimum_amount jsonb NOT NULL DEFAULT '{}';
-- Below these no collection is worth its cost (Stripe's minimum charge is about 0.50 USD); the fee-derived minimum of each
-- merchant's price applies on top.
UPDATE country_processor SET minimum_amount =
  (SELECT coalesce(jsonb_object_agg(currency, minimum), '{}') FROM (VALUES ('UYU', 2000), ('ARS', 50000), ('USD', 50), ('BRL', 250))
     AS m(currency, minimum) WHERE currency = ANY (currencies));

-- Balance transactions: the dispute fee; parts of one movement; draws on a payment's pending net.
ALTER TABLE balance_transaction DROP CONSTRAINT balance_transaction_type_check,
  ADD CONSTRAINT balance_transaction_type_check
    CHECK (type IN ('PAYIN', 'REFUND', 'FEE', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'DISPUTE_FEE', 'PAYOUT', 'PAYOUT_FAILURE',
                    'ADJUSTMENT')),
  ADD COLUMN part smallint NOT NULL DEFAULT 0,
  ADD COLUMN drawn_from uuid;
CREATE UNIQUE INDEX balance_transaction_source_part_idx ON balance_transaction (source_id, type, part);
DROP INDEX balance_transaction_source_idx;
CREATE INDEX balance_transaction_drawn_idx ON balance_transaction (drawn_from) WHERE drawn_from IS NOT NULL;

-- Append-only, but for two updates of payout_id: the sweep (null to a payout, checked here in C) and the release of a failed,
-- canceled or returned payout's transactions (a payout to null, checked by balance_transaction_released()).
DROP TRIGGER balance_transaction_no_update ON balance_transaction;
CREATE TRIGGER balance_transaction_no_update BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN ((OLD.payout_id IS NULL) = (NEW.payout_id IS NULL)
        OR (NEW.balance_transaction_id, NEW.business_id, NEW.merchant_id, NEW.currency, NEW.type, NEW.amount, NEW.fee, NEW.net,
            NEW.available_on, NEW.source_id, NEW.description, NEW.created_at, NEW.part, NEW.drawn_from)
           IS DISTINCT FROM
           (OLD.balance_transaction_id, OLD.business_id, OLD.merchant_id, OLD.currency, OLD.type, OLD.amount, OLD.fee, OLD.net,
            OLD.available_on, OLD.source_id, OLD.description, OLD.created_at, OLD.part, OLD.drawn_from))
  EXECUTE FUNCTION balance_transaction_immutable();
CREATE FUNCTION balance_transaction_released() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.type IN ('PAYOUT', 'PAYOUT_FAILURE')
     OR NOT EXISTS (SELECT 1 FROM payout WHERE payout_id = OLD.payout_id AND status IN ('FAILED', 'CANCELED', 'RETURNED')) THEN
    RAISE EXCEPTION USING ERRCODE = 'P0005',
      MESSAGE = 'balance transactions are append-only: only a failed, canceled or returned payout releases what it swept';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER balance_transaction_release BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN (OLD.payout_id IS NOT NULL AND NEW.payout_id IS NULL) EXECUTE FUNCTION balance_transaction_released();

-- What failed or was canceled so far, when no later payout swept its PAYOUT_FAILURE yet: what it swept is freed, and the pair
-- (PAYOUT, PAYOUT_FAILURE) nets inside it. (Where a later payout swept the failure, that payout paid the money: kept as it is.)
UPDATE balance_transaction bt SET payout_id = NULL
  FROM payout p
 WHERE bt.payout_id = p.payout_id AND p.status IN ('FAILED', 'CANCELED') AND bt.type NOT IN ('PAYOUT', 'PAYOUT_FAILURE')
   AND EXISTS (SELECT 1 FROM balance_transaction f WHERE f.source_id = p.payout_id AND f.type = 'PAYOUT_FAILURE' AND f.payout_id IS NULL);
UPDATE balance_transaction f SET payout_id = f.source_id
  FROM payout p WHERE f.type = 'PAYOUT_FAILURE' AND f.payout_id IS NULL AND p.payout_id = f.source_id;

/*
 * A movement of a payment's money in the balance (contract §24): a debit (amount < 0) takes what is still pending of the
 * payment's PAYIN net first, booked PENDING at the PAYIN's availableOn (drawn_from its row), and the rest at once; a credit
 * (amount > 0) gives back first, as pending, what this source drew from that pending net and is still pending, the rest at
 * once. One or two rows, numbered from the source's next part. Moves against one payment are serialised. The number of rows.
 */
CREATE FUNCTION balance_move(p_business uuid, p_merchant uuid, p_currency char(3), p_type text, p_amount bigint, p_source uuid,
                             p_charge uuid, p_description text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
  pin record;
  pending_part bigint := 0;
  next_part smallint;
  written integer := 0;
BEGIN
  IF p_amount = 0 THEN RETURN 0; END IF;
  IF p_charge IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('balance-draw:' || p_charge, 0));
    SELECT balance_transaction_id, net, available_on INTO pin FROM balance_transaction
     WHERE source_id = p_charge AND type = 'PAYIN' ORDER BY part LIMIT 1;
    IF FOUND AND pin.available_on > at THEN
      IF p_amount < 0 THEN
        pending_part := -least(-p_amount, greatest(0, pin.net + coalesce(
          (SELECT sum(net) FROM balance_transaction WHERE drawn_from = pin.balance_transaction_id), 0)));
      ELSE
        pending_part := least(p_amount, greatest(0, -coalesce(
          (SELECT sum(net) FROM balance_transaction WHERE drawn_from = pin.balance_transaction_id AND source_id = p_source), 0)));
      END IF;
    END IF;
  END IF;
  SELECT coalesce(max(part) + 1, 0) INTO next_part FROM balance_transaction WHERE source_id = p_source AND type = p_type;
  IF pending_part <> 0 THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on,
                                     source_id, description, created_at, part, drawn_from)
    VALUES (gen_random_uuid(), p_business, p_merchant, p_currency, p_type, pending_part, 0, pending_part, pin.available_on, p_source,
            p_description, at, next_part, pin.balance_transaction_id);
    written := 1;
    next_part := next_part + 1;
  END IF;
  IF p_amount - pending_part <> 0 THEN
    INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net, available_on,
                                     source_id, description, created_at, part)
    VALUES (gen_random_uuid(), p_business, p_merchant, p_currency, p_type, p_amount - pending_part, 0, p_amount - pending_part, at,
            p_source, p_description, at, next_part);
    written := written + 1;
  END IF;
  RETURN written;
END $$;

-- Approvals: as before (contract §23), but a refund draws on its payment's pending net first, and a manual refund (money the
-- merchant returned itself) moves nothing.
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
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE OR REPLACE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
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
DROP FUNCTION balance_move(uuid, uuid, char(3), text, bigint, uuid, uuid, text);
DROP TRIGGER balance_transaction_release ON balance_transaction;
DROP FUNCTION balance_transaction_released();
DROP TRIGGER balance_transaction_no_update ON balance_transaction;
CREATE TRIGGER balance_transaction_no_update BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN (OLD.payout_id IS NOT NULL OR NEW.payout_id IS NULL
        OR (NEW.balance_transaction_id, NEW.business_id, NEW.merchant_id, NEW.currency, NEW.type, NEW.amount, NEW.fee, NEW.net,
            NEW.available_on, NEW.source_id, NEW.description, NEW.created_at)
           IS DISTINCT FROM
           (OLD.balance_transaction_id, OLD.business_id, OLD.merchant_id, OLD.currency, OLD.type, OLD.amount, OLD.fee, OLD.net,
            OLD.available_on, OLD.source_id, OLD.description, OLD.created_at))
  EXECUTE FUNCTION balance_transaction_immutable();
DROP INDEX balance_transaction_drawn_idx;
CREATE UNIQUE INDEX balance_transaction_source_idx ON balance_transaction (source_id, type);
DROP INDEX balance_transaction_source_part_idx;
ALTER TABLE balance_transaction DROP COLUMN part, DROP COLUMN drawn_from, DROP CONSTRAINT balance_transaction_type_check,
  ADD CONSTRAINT balance_transaction_type_check
    CHECK (type IN ('PAYIN', 'REFUND', 'FEE', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'PAYOUT', 'PAYOUT_FAILURE', 'ADJUSTMENT'));
ALTER TABLE country_processor DROP COLUMN minimum_amount;
DROP TABLE dispute_fee;
ALTER TABLE settlement_account DROP COLUMN hold_until, DROP COLUMN confirmed_at, DROP COLUMN confirmed_by,
  DROP COLUMN payout_waiting_since, DROP COLUMN returned_payout_id;
DROP TABLE payout_debtor_account;
DROP TRIGGER payout_batch_once ON payout;
DROP FUNCTION payout_batch_once();
ALTER TABLE payout DROP CONSTRAINT payout_batch_fk, DROP COLUMN batch_id, DROP COLUMN returned_at,
  DROP CONSTRAINT payout_status_check,
  ADD CONSTRAINT payout_status_check CHECK (status IN ('PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED'));
DROP TABLE payout_batch;
`);
  }
}

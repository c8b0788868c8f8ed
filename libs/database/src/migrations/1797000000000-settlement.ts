import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * After the collection (contract §19): prices and settlement delays, fees on
 * payins, balance transactions and their maintained figures, banks and
 * settlement accounts, payouts, once-a-day runs, and reconciliation with the
 * processors' reports.
 *
 * One link crosses contexts here, on purpose: the payin table's approval
 * triggers write the approved payin's or refund's balance transaction in the
 * statement that approves it, copying the fee and availability date the
 * application decided and stored on the payin. No write path (an API, a
 * sweep, an operator's SQL) can approve money without moving the balance,
 * and approvals cost no statement more.
 */
export class Settlement1797000000000 implements MigrationInterface {
  name = 'Settlement1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
-- The catalog: each country's time zone and the tax on fees (VAT on the commission), in basis points.
ALTER TABLE country ADD COLUMN time_zone text, ADD COLUMN fee_tax_bp integer;
UPDATE country SET time_zone = 'America/Montevideo', fee_tax_bp = 2200 WHERE iso3 = 'URY';
UPDATE country SET time_zone = 'America/Argentina/Buenos_Aires', fee_tax_bp = 2100 WHERE iso3 = 'ARG';
UPDATE country SET time_zone = 'America/Sao_Paulo', fee_tax_bp = 0 WHERE iso3 = 'BRA';
ALTER TABLE country ALTER COLUMN time_zone SET NOT NULL, ALTER COLUMN fee_tax_bp SET NOT NULL,
  ADD CONSTRAINT country_fee_tax_bp_range CHECK (fee_tax_bp BETWEEN 0 AND 10000);

-- Each country processor's default price (basis points, and a fixed fee per currency in minor units) and settlement delay
-- (business days), moved from the payment method: a delay belongs to the processor of a country, not to a brand everywhere.
ALTER TABLE country_processor ADD COLUMN settlement_delay_days integer, ADD COLUMN fee_bp integer,
  ADD COLUMN fee_fixed jsonb NOT NULL DEFAULT '{}';
UPDATE country_processor cp SET
  settlement_delay_days = pm.settlement_delay_days,
  fee_bp = CASE it.name
    WHEN 'CREDIT_CARD' THEN CASE pm.name WHEN 'AMERICAN_EXPRESS' THEN 549 ELSE 449 END
    WHEN 'DEBIT_CARD' THEN 249
    WHEN 'PREPAID_CARD' THEN 299
    WHEN 'BANK_TRANSFER' THEN 149
    WHEN 'A2A' THEN 99
    WHEN 'PIX' THEN 99
    WHEN 'CASH' THEN 299
    WHEN 'WALLETS' THEN CASE pm.name WHEN 'MERCADO_PAGO' THEN 599 ELSE 399 END
    ELSE 399 END,
  -- Fixed fees in the processor's own currencies only (minor units).
  fee_fixed = CASE it.name
    WHEN 'BANK_TRANSFER' THEN (SELECT jsonb_object_agg(currency, fixed) FROM (VALUES ('UYU', 1500), ('ARS', 15000), ('USD', 50)) AS f(currency, fixed)
                               WHERE currency = ANY (cp.currencies))
    WHEN 'CASH' THEN '{"ARS": 10000}'::jsonb
    WHEN 'A2A' THEN '{"BRL": 50}'::jsonb
    ELSE '{}'::jsonb END
FROM payment_method pm, payment_instrument_type it
WHERE pm.payment_method_id = cp.payment_method_id AND it.payment_instrument_type_id = cp.payment_instrument_type_id;
ALTER TABLE country_processor ALTER COLUMN settlement_delay_days SET NOT NULL, ALTER COLUMN fee_bp SET NOT NULL,
  ADD CONSTRAINT country_processor_delay_range CHECK (settlement_delay_days BETWEEN 0 AND 60),
  ADD CONSTRAINT country_processor_fee_range CHECK (fee_bp BETWEEN 0 AND 2000);
ALTER TABLE payment_method DROP COLUMN settlement_delay_days;

-- A merchant's own price for a country processor (the operator's pricing:set); none: the catalog's.
CREATE TABLE merchant_pricing (
  merchant_id           uuid NOT NULL REFERENCES merchant,
  country_processor_id  uuid NOT NULL REFERENCES country_processor,
  fee_bp                integer NOT NULL CHECK (fee_bp BETWEEN 0 AND 2000),
  fee_fixed             jsonb NOT NULL DEFAULT '{}',
  settlement_delay_days integer NOT NULL CHECK (settlement_delay_days BETWEEN 0 AND 60),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, country_processor_id)
);
-- Read at every approval, so kept in each process's memory; a change is heard through the change feed.
CREATE TRIGGER merchant_pricing_changed AFTER INSERT OR UPDATE OR DELETE ON merchant_pricing
  FOR EACH ROW EXECUTE FUNCTION notify_merchant_change('merchant-pricing');

-- Fees on payins, fixed at approval (minor units); the processor's own fee when it reports one.
-- The payout of a payin is its balance transaction's: the ledger reads it from there.
ALTER TABLE payin ADD COLUMN fee_amount bigint NOT NULL DEFAULT 0, ADD COLUMN fee_tax_amount bigint NOT NULL DEFAULT 0,
  ADD COLUMN processor_fee_amount bigint, DROP COLUMN payout_request_id;

-- The seed's settlementBank takes any account a settlement account takes (a PIX e-mail key has up to 77 characters).
ALTER TABLE merchant ALTER COLUMN settlement_account_number TYPE varchar(77);

-- The payout schedule of a merchant (null: the default, DAILY).
ALTER TABLE merchant_configuration ADD COLUMN payout_schedule jsonb;

-- Every movement of a merchant's money in a currency. Append-only: the database refuses deletes and every
-- update but the one a payout's sweep makes (payout_id, from null to its payout, once).
CREATE TABLE balance_transaction (
  balance_transaction_id uuid PRIMARY KEY,
  business_id            uuid NOT NULL,
  merchant_id            uuid NOT NULL,
  currency               char(3) NOT NULL,
  type                   text NOT NULL CHECK (type IN ('PAYIN', 'REFUND', 'CHARGEBACK', 'CHARGEBACK_REVERSAL', 'PAYOUT', 'PAYOUT_FAILURE', 'ADJUSTMENT')),
  amount                 bigint NOT NULL,
  fee                    bigint NOT NULL,
  net                    bigint NOT NULL,
  available_on           timestamptz NOT NULL,
  source_id              uuid NOT NULL,
  payout_id              uuid,
  description            varchar(512),
  created_at             timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT balance_transaction_net CHECK (net = amount - fee)
);
-- One movement per source and type: an approval, a payout or its failure moves money once.
CREATE UNIQUE INDEX balance_transaction_source_idx ON balance_transaction (source_id, type);
CREATE INDEX balance_transaction_merchant_idx ON balance_transaction (merchant_id, created_at DESC, balance_transaction_id DESC);
CREATE INDEX balance_transaction_business_idx ON balance_transaction (business_id, created_at DESC, balance_transaction_id DESC);
-- What a payout of the whole available balance sweeps.
CREATE INDEX balance_transaction_unswept_idx ON balance_transaction (merchant_id, currency, available_on) WHERE payout_id IS NULL;
CREATE INDEX balance_transaction_payout_idx ON balance_transaction (payout_id, created_at) WHERE payout_id IS NOT NULL;

CREATE FUNCTION balance_transaction_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0005', MESSAGE = 'balance transactions are append-only: ' || TG_OP || ' refused';
END $$;
CREATE TRIGGER balance_transaction_no_delete BEFORE DELETE OR TRUNCATE ON balance_transaction
  FOR EACH STATEMENT EXECUTE FUNCTION balance_transaction_immutable();
-- Checked in the trigger's WHEN, in C: a sweep's update (payout_id from null, nothing else) runs no function.
CREATE TRIGGER balance_transaction_no_update BEFORE UPDATE ON balance_transaction FOR EACH ROW
  WHEN (OLD.payout_id IS NOT NULL OR NEW.payout_id IS NULL
        OR (NEW.balance_transaction_id, NEW.business_id, NEW.merchant_id, NEW.currency, NEW.type, NEW.amount, NEW.fee, NEW.net,
            NEW.available_on, NEW.source_id, NEW.description, NEW.created_at)
           IS DISTINCT FROM
           (OLD.balance_transaction_id, OLD.business_id, OLD.merchant_id, OLD.currency, OLD.type, OLD.amount, OLD.fee, OLD.net,
            OLD.available_on, OLD.source_id, OLD.description, OLD.created_at))
  EXECUTE FUNCTION balance_transaction_immutable();

-- The balance's maintained figures: the net of every transaction per merchant, currency and the moment it becomes
-- available (-infinity: available when written). Balances sum a handful of these rows, never the transactions; the
-- statement trigger keeps them equal to the transactions' sum in the transaction that writes them.
CREATE TABLE balance_figure (
  merchant_id    uuid NOT NULL,
  currency       char(3) NOT NULL,
  available_from timestamptz NOT NULL,
  net            bigint NOT NULL,
  PRIMARY KEY (merchant_id, currency, available_from)
);
CREATE FUNCTION balance_figure_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_figure AS f (merchant_id, currency, available_from, net)
  SELECT merchant_id, currency, CASE WHEN available_on <= created_at THEN '-infinity'::timestamptz ELSE available_on END, sum(net)
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, currency, available_from) DO UPDATE SET net = f.net + EXCLUDED.net;
  RETURN NULL;
END $$;
CREATE TRIGGER balance_transaction_counted AFTER INSERT ON balance_transaction REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION balance_figure_add();

-- The approval of a payin (fee and availability as the application fixed them) or of a refund (available at once).
CREATE FUNCTION payin_balance_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The moment of writing (not the transaction's start): an approval's own time, taken before, is never after it,
  -- so money available at approval lands in the balance's always-available figure.
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
CREATE TRIGGER payin_approved_insert AFTER INSERT ON payin FOR EACH ROW
  WHEN (NEW.status = 'APPROVED') EXECUTE FUNCTION payin_balance_movement();
CREATE TRIGGER payin_approved_update AFTER UPDATE OF status ON payin FOR EACH ROW
  WHEN (NEW.status = 'APPROVED' AND OLD.status IS DISTINCT FROM 'APPROVED') EXECUTE FUNCTION payin_balance_movement();

-- What was approved before this migration moves the balance too (fees 0: none were charged then).
INSERT INTO balance_transaction (balance_transaction_id, business_id, merchant_id, currency, type, amount, fee, net,
                                 available_on, source_id, description, created_at)
SELECT gen_random_uuid(), business_id, merchant_id, currency, transaction_type,
       CASE transaction_type WHEN 'PAYIN' THEN received_amount ELSE -amount END, 0,
       CASE transaction_type WHEN 'PAYIN' THEN received_amount ELSE -amount END,
       CASE transaction_type WHEN 'PAYIN' THEN COALESCE(liquidation_date, updated_at) ELSE updated_at END,
       transaction_id, description, updated_at
FROM payin WHERE status = 'APPROVED';

-- The banks of each country with their official codes: BCU (Uruguay), BCRA entity codes (Argentina; 000 stands for
-- the virtual accounts, CVU, of payment service providers), COMPE and ISPB (Brazil).
CREATE TABLE bank (
  bank_id         uuid PRIMARY KEY,
  country         char(3) NOT NULL CHECK (country IN ('URY', 'ARG', 'BRA')),
  code            varchar(8) NOT NULL,
  ispb            char(8),
  name            text NOT NULL,
  -- Uruguay: the lengths the bank's account numbers have, where known (otherwise 6 to 14 digits).
  account_lengths integer[],
  UNIQUE (country, code)
);
INSERT INTO bank (bank_id, country, code, ispb, name, account_lengths) VALUES
  ('dc53087a-2434-475e-bdcb-ea34a941e862', 'URY', '001', NULL, 'Banco de la República Oriental del Uruguay (BROU)', ARRAY[9, 14]),
  ('ba19679e-b38d-4745-a1ec-9ed9d7a79c49', 'URY', '091', NULL, 'Banco Hipotecario del Uruguay', NULL),
  ('8db36e1c-5e3e-464a-97cf-f69e43e12102', 'URY', '110', NULL, 'Banco Bandes Uruguay', NULL),
  ('c52c41a1-dfb0-466d-9871-fa75bb521308', 'URY', '113', NULL, 'Banco Itaú Uruguay', ARRAY[7]),
  ('26db997d-a0d6-4eb2-9767-32fafd29b4c5', 'URY', '128', NULL, 'Scotiabank Uruguay', NULL),
  ('f5bf0358-24c3-4b35-8921-8b83117db42a', 'URY', '137', NULL, 'Banco Santander Uruguay', NULL),
  ('08487235-9d3d-4deb-b076-f246b272f9d9', 'URY', '153', NULL, 'BBVA Uruguay', NULL),
  ('ad013c49-68ab-4a5f-9376-ff69831a9ab3', 'URY', '157', NULL, 'HSBC Bank (Uruguay)', NULL),
  ('658fb397-131f-4210-a71a-8d2c9c4efb92', 'URY', '205', NULL, 'Citibank N.A. Sucursal Uruguay', NULL),
  ('c66ff363-04d7-4a0c-818d-ee3677a254af', 'ARG', '000', NULL, 'Cuenta virtual (CVU) de un proveedor de servicios de pago', NULL),
  ('2c7d9163-44b3-44ad-8e41-607ef0feda87', 'ARG', '007', NULL, 'Banco de Galicia y Buenos Aires', NULL),
  ('bcaa2908-5d22-4749-a298-964ea8c41990', 'ARG', '011', NULL, 'Banco de la Nación Argentina', NULL),
  ('17a08990-709c-4220-9a56-9226fa93323d', 'ARG', '014', NULL, 'Banco de la Provincia de Buenos Aires', NULL),
  ('be466f8d-255c-4a18-8964-b48fd0e1a669', 'ARG', '015', NULL, 'Industrial and Commercial Bank of China (Argentina)', NULL),
  ('3eeded49-ed53-4d1a-b77f-cbe5376311e5', 'ARG', '017', NULL, 'BBVA Argentina', NULL),
  ('4fd6ce29-28a6-4e2b-9324-12db964098e6', 'ARG', '027', NULL, 'Banco Supervielle', NULL),
  ('a5ca6fbc-86c9-42c5-89d0-948fee5bc332', 'ARG', '029', NULL, 'Banco de la Ciudad de Buenos Aires', NULL),
  ('9d488501-038c-48b2-88fe-54e9ee444fbd', 'ARG', '034', NULL, 'Banco Patagonia', NULL),
  ('4b60d966-0ffa-469f-9c93-85ebf49abc9e', 'ARG', '044', NULL, 'Banco Hipotecario', NULL),
  ('00c1b297-08de-4521-abe3-1198d16b57f0', 'ARG', '072', NULL, 'Banco Santander Argentina', NULL),
  ('02e39201-292b-48f7-acbe-f235d438a96d', 'ARG', '143', NULL, 'Brubank', NULL),
  ('7fd1c93e-8359-4c64-95d1-34486dd92272', 'ARG', '150', NULL, 'HSBC Bank Argentina', NULL),
  ('f3a9b63a-9ce5-441d-9c35-379ce96c58ae', 'ARG', '191', NULL, 'Banco Credicoop Cooperativo Limitado', NULL),
  ('d98c0300-5e42-4c24-a2ef-97ab6b305b65', 'ARG', '285', NULL, 'Banco Macro', NULL),
  ('387271b3-2bbe-44a0-9e15-4a1ac03b88ec', 'ARG', '299', NULL, 'Banco Comafi', NULL),
  ('7bbd5d4f-f70e-4b8e-8c3e-01451c31d75c', 'ARG', '330', NULL, 'Nuevo Banco de Santa Fe', NULL),
  ('2f968d6f-51ed-4363-9984-7f40588ab72a', 'BRA', '001', '00000000', 'Banco do Brasil', NULL),
  ('8a1f3f64-1a6c-40a9-9504-23e26bdb4124', 'BRA', '033', '90400888', 'Banco Santander (Brasil)', NULL),
  ('605e566b-70ec-4e2c-ad7b-3208df591f1c', 'BRA', '041', '92702067', 'Banrisul', NULL),
  ('b1c3ef63-bafb-49ea-956e-99125a427431', 'BRA', '077', '00416968', 'Banco Inter', NULL),
  ('43800d12-0dce-4648-b4e0-6b2b16c2a498', 'BRA', '104', '00360305', 'Caixa Econômica Federal', NULL),
  ('093fc9db-93d4-4013-89a6-a765e4db005c', 'BRA', '208', '30306294', 'Banco BTG Pactual', NULL),
  ('e7628f90-439e-489d-bff5-9f70f1ffbc1e', 'BRA', '237', '60746948', 'Banco Bradesco', NULL),
  ('ceb2cda3-983f-46b7-b04a-f45b4c919d05', 'BRA', '260', '18236120', 'Nu Pagamentos (Nubank)', NULL),
  ('3f8341e5-6774-45e3-9c22-52549e1a285b', 'BRA', '290', '08561701', 'PagSeguro Internet (PagBank)', NULL),
  ('d411f8b9-f8ae-488f-a46e-ad1abc80ef9c', 'BRA', '323', '10573521', 'Mercado Pago Instituição de Pagamento', NULL),
  ('3646dfef-9549-4826-86fd-4d4288bc038a', 'BRA', '336', '31872495', 'Banco C6', NULL),
  ('889c9371-1954-4c17-82a3-43a59c788574', 'BRA', '341', '60701190', 'Itaú Unibanco', NULL),
  ('69cab59e-3de7-4464-8339-b9b7a3b3ef0c', 'BRA', '422', '58160789', 'Banco Safra', NULL),
  ('e9c9460f-6e5b-4c14-8073-3283b8fe1f1a', 'BRA', '748', '01181521', 'Banco Cooperativo Sicredi', NULL),
  ('4d0c043b-bb36-4c06-a901-3cc57fcf1545', 'BRA', '756', '02038232', 'Banco Cooperativo do Brasil (Sicoob)', NULL);

-- Where a merchant's payouts in a currency go: one account per currency.
CREATE TABLE settlement_account (
  settlement_account_id uuid PRIMARY KEY,
  business_id           uuid NOT NULL,
  merchant_id           uuid NOT NULL REFERENCES merchant,
  currency              char(3) NOT NULL,
  bank_id               uuid NOT NULL REFERENCES bank,
  account_number        varchar(77) NOT NULL,
  account_type          text NOT NULL CHECK (account_type IN ('CHECKING', 'SAVINGS', 'PIX_KEY')),
  holder_document       varchar(32),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT settlement_account_per_currency UNIQUE (merchant_id, currency)
);

CREATE TABLE payout (
  payout_id             uuid PRIMARY KEY,
  business_id           uuid NOT NULL,
  merchant_id           uuid NOT NULL,
  currency              char(3) NOT NULL,
  amount                bigint NOT NULL CHECK (amount > 0),
  status                text NOT NULL CHECK (status IN ('PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED')),
  rail                  text NOT NULL,
  origin                text NOT NULL CHECK (origin IN ('REQUESTED', 'SCHEDULED')),
  -- The settlement account as it was when the payout was made.
  settlement_account_id uuid NOT NULL,
  bank_id               uuid NOT NULL REFERENCES bank,
  account_number        varchar(77) NOT NULL,
  account_type          text NOT NULL,
  holder_document       varchar(32),
  transaction_count     integer NOT NULL DEFAULT 0,
  arrival_date          date,
  bank_reference        varchar(128),
  failure_reason        varchar(512),
  -- The bank-file rail: when the payout was written to its bank's batch file (it has then left).
  exported_at           timestamptz,
  -- The local day of the scheduled run that made it: at most one scheduled payout per merchant, currency and day.
  scheduled_for         date,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  paid_at               timestamptz,
  CONSTRAINT payout_scheduled_once UNIQUE (merchant_id, currency, scheduled_for)
);
CREATE INDEX payout_merchant_idx ON payout (merchant_id, created_at DESC, payout_id DESC);
CREATE INDEX payout_business_idx ON payout (business_id, created_at DESC, payout_id DESC);
CREATE INDEX payout_under_way_idx ON payout (merchant_id, currency) INCLUDE (amount) WHERE status IN ('PENDING', 'IN_TRANSIT');
CREATE INDEX payout_bank_batch_idx ON payout (bank_id, created_at) WHERE status = 'IN_TRANSIT' AND exported_at IS NULL;

-- A job that runs once a day per scope (a country's payouts at 06:00, a merchant's reconciliation): the first process
-- to insert the day's row runs it, whatever the number of processes.
CREATE TABLE daily_run (
  kind       text NOT NULL,
  scope      text NOT NULL,
  local_date date NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, scope, local_date)
);

CREATE TABLE reconciliation_run (
  run_id         uuid PRIMARY KEY,
  business_id    uuid NOT NULL,
  merchant_id    uuid NOT NULL,
  provider       text NOT NULL,
  from_date      date NOT NULL,
  to_date        date NOT NULL,
  status         text NOT NULL CHECK (status IN ('RUNNING', 'COMPLETED', 'FAILED')),
  matched        integer NOT NULL DEFAULT 0,
  ignored        integer NOT NULL DEFAULT 0,
  failure_reason varchar(512),
  created_at     timestamptz NOT NULL,
  finished_at    timestamptz
);
CREATE INDEX reconciliation_run_merchant_idx ON reconciliation_run (merchant_id, created_at DESC);
CREATE INDEX reconciliation_run_business_idx ON reconciliation_run (business_id, created_at DESC);
CREATE TABLE reconciliation_discrepancy (
  run_id      uuid NOT NULL REFERENCES reconciliation_run ON DELETE CASCADE,
  position    integer NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('AMOUNT_MISMATCH', 'FEE_MISMATCH', 'MISSING_HERE', 'MISSING_THERE')),
  external_id varchar(255) NOT NULL,
  ours        jsonb,
  theirs      jsonb,
  PRIMARY KEY (run_id, position)
);
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE reconciliation_discrepancy, reconciliation_run, daily_run, payout, settlement_account, bank;
DROP TRIGGER payin_approved_insert ON payin;
DROP TRIGGER payin_approved_update ON payin;
DROP FUNCTION payin_balance_movement();
DROP TABLE balance_figure;
DROP TABLE balance_transaction;
DROP FUNCTION balance_figure_add();
DROP FUNCTION balance_transaction_immutable();
ALTER TABLE merchant_configuration DROP COLUMN payout_schedule;
ALTER TABLE merchant ALTER COLUMN settlement_account_number TYPE varchar(64);
ALTER TABLE payin DROP COLUMN fee_amount, DROP COLUMN fee_tax_amount, DROP COLUMN processor_fee_amount, ADD COLUMN payout_request_id uuid;
DROP TABLE merchant_pricing;
ALTER TABLE payment_method ADD COLUMN settlement_delay_days integer NOT NULL DEFAULT 0;
ALTER TABLE country_processor DROP COLUMN settlement_delay_days, DROP COLUMN fee_bp, DROP COLUMN fee_fixed;
ALTER TABLE country DROP COLUMN time_zone, DROP COLUMN fee_tax_bp;
`);
  }
}

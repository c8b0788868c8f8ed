import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payins ledger, the sandbox gateway's sessions, processed gateway events
 * (so a replayed callback changes nothing twice) and idempotency keys.
 */
export class PayinsGatewayIdempotency1795500000000 implements MigrationInterface {
  name = 'PayinsGatewayIdempotency1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payment_intent
  -- Refunds that have not failed (manual ones pending included): what is no longer refundable.
  ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0,
  ADD COLUMN confirmation_method text NOT NULL DEFAULT 'MANUAL' CHECK (confirmation_method IN ('AUTOMATIC', 'MANUAL')),
  ADD COLUMN preferred_payment_method text,
  ADD COLUMN preferred_instrument_type text,
  ADD COLUMN additional_info jsonb,
  ADD COLUMN succeeded_at timestamptz,
  ADD CONSTRAINT payment_intent_refund_within_received CHECK (refunded_amount >= 0 AND refunded_amount <= received_amount);

CREATE TABLE payin (
  transaction_id           uuid PRIMARY KEY,
  business_id              uuid NOT NULL REFERENCES business,
  merchant_id              uuid NOT NULL REFERENCES merchant,
  payment_intent_id        uuid NOT NULL REFERENCES payment_intent,
  account_id               uuid,
  payout_request_id        uuid,
  transaction_type         text NOT NULL CHECK (transaction_type IN ('PAYIN', 'REFUND')),
  concept_code             text NOT NULL CHECK (concept_code IN ('PAYIN', 'REFUND', 'MANUAL_REFUND')),
  status                   text NOT NULL CHECK (status IN ('PENDING', 'SCHEDULED', 'APPROVED', 'CANCELLED', 'REJECTED', 'EXPIRED')),
  manual_refund_status     text CHECK (manual_refund_status IN ('MANUAL_REFUND_PENDING', 'MANUAL_REFUND_CONFIRMED')),
  country_processor_id     uuid REFERENCES country_processor,
  gateway                  text,
  external_id              varchar(128),
  external_status          varchar(64),
  transaction_sync_date    timestamptz,
  currency                 char(3) NOT NULL,
  -- Integer minor units.
  amount                   bigint NOT NULL CHECK (amount > 0),
  subtotal_amount          bigint NOT NULL,
  tax_amount               bigint NOT NULL,
  tip_amount               bigint NOT NULL DEFAULT 0,
  received_amount          bigint NOT NULL DEFAULT 0,
  description              varchar(512),
  merchant_name            varchar(128) NOT NULL,
  person_first_name        varchar(128),
  person_last_name         varchar(128),
  masked_pan               varchar(32),
  card_type                varchar(32),
  payment_intent_initiator text NOT NULL CHECK (payment_intent_initiator IN ('MERCHANT', 'PAYER')),
  session_expires_at       timestamptz,
  liquidation_date         timestamptz,
  cancelled_at             timestamptz,
  cancellation_reason      text,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX payin_external_id_idx ON payin (gateway, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX payin_intent_idx ON payin (payment_intent_id, created_at);
-- The ledger (operation 36): every filter combines with the tenant and a date or amount order.
-- INCLUDE makes the filtered counts index-only scans (rowCount at a million rows).
CREATE INDEX payin_business_date_idx ON payin (business_id, created_at DESC, transaction_id) INCLUDE (status, currency, amount);
CREATE INDEX payin_merchant_date_idx ON payin (merchant_id, created_at DESC, transaction_id) INCLUDE (status, currency, amount);
CREATE INDEX payin_business_status_date_idx ON payin (business_id, status, created_at DESC) INCLUDE (currency, amount);
CREATE INDEX payin_merchant_status_date_idx ON payin (merchant_id, status, created_at DESC) INCLUDE (currency, amount);
CREATE INDEX payin_business_currency_amount_idx ON payin (business_id, currency, amount) INCLUDE (status, created_at);
CREATE INDEX payin_merchant_currency_amount_idx ON payin (merchant_id, currency, amount) INCLUDE (status, created_at);
-- The expiry sweep: payer sessions still open at a gateway.
CREATE INDEX payin_open_sessions_idx ON payin (session_expires_at) WHERE status = 'PENDING' AND session_expires_at IS NOT NULL;

-- The sandbox gateway's own records: what a real gateway keeps on its side.
CREATE TABLE sandbox_gateway_session (
  reference          varchar(64) PRIMARY KEY,
  kind               text NOT NULL CHECK (kind IN ('CHECKOUT', 'OFF_SESSION', 'REFUND')),
  status             text NOT NULL CHECK (status IN ('OPEN', 'PENDING', 'APPROVED', 'REJECTED', 'CANCELLED', 'EXPIRED')),
  merchant_name      varchar(128) NOT NULL,
  payment_method     text NOT NULL,
  currency           char(3) NOT NULL,
  amount             bigint NOT NULL,
  settle_at          timestamptz,
  expires_at         timestamptz,
  callback_sequence  integer NOT NULL DEFAULT 0,
  callback_pending   boolean NOT NULL DEFAULT false,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_session_settle_idx ON sandbox_gateway_session (settle_at) WHERE status = 'PENDING' AND settle_at IS NOT NULL;
CREATE INDEX sandbox_session_callback_idx ON sandbox_gateway_session (updated_at) WHERE callback_pending;

-- Gateway callbacks already applied: a replay is recognised and changes nothing.
CREATE TABLE gateway_event (
  gateway     text NOT NULL,
  event_id    varchar(128) NOT NULL,
  reference   varchar(128) NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (gateway, event_id)
);

CREATE TABLE idempotency_key (
  scope            varchar(80) NOT NULL,
  key              varchar(255) NOT NULL,
  request_hash     char(64) NOT NULL,
  state            text NOT NULL CHECK (state IN ('IN_PROGRESS', 'DONE')),
  response_status  integer,
  -- text, not jsonb: a replay must return the first response byte for byte (jsonb reorders keys).
  response_body    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_key_expiry_idx ON idempotency_key (expires_at);
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE idempotency_key, gateway_event, sandbox_gateway_session, payin;
ALTER TABLE payment_intent DROP CONSTRAINT payment_intent_refund_within_received,
  DROP COLUMN refunded_amount, DROP COLUMN confirmation_method, DROP COLUMN preferred_payment_method,
  DROP COLUMN preferred_instrument_type, DROP COLUMN additional_info, DROP COLUMN succeeded_at;`);
  }
}

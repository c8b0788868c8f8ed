import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payers (with an accent- and case-insensitive trigram search), payment
 * instruments, and the payment intent table that both refer to.
 */
export class PayersInstrumentsIntents1795400000000 implements MigrationInterface {
  name = 'PayersInstrumentsIntents1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is only STABLE (its dictionary could change); pinning the
-- dictionary makes it safe to declare IMMUTABLE, as generated columns need.
CREATE FUNCTION pcs_search_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;

CREATE TABLE payer (
  payer_id           uuid PRIMARY KEY,
  business_id        uuid NOT NULL REFERENCES business,
  merchant_id        uuid NOT NULL REFERENCES merchant,
  external_id        uuid,
  first_name         varchar(128),
  last_name          varchar(128),
  document_type      text CHECK (document_type IN ('PASSPORT', 'IDENTITY_DOCUMENT', 'DNI')),
  document_number    varchar(128),
  country_id         uuid REFERENCES country,
  email              varchar(128),
  phone              varchar(128),
  address            jsonb,
  device_fingerprint varchar(256),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  search_text        text GENERATED ALWAYS AS (
    pcs_search_text(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(document_number, ''))
  ) STORED,
  CONSTRAINT payer_document_complete CHECK ((document_type IS NULL) = (document_number IS NULL))
);
-- One live payer per document and merchant.
CREATE UNIQUE INDEX payer_document_unique ON payer (merchant_id, document_type, document_number)
  WHERE deleted_at IS NULL AND document_number IS NOT NULL;
-- Paged listing of a merchant's (or business's) live payers, newest first.
CREATE INDEX payer_merchant_live_idx ON payer (merchant_id, created_at DESC, payer_id) WHERE deleted_at IS NULL;
CREATE INDEX payer_business_live_idx ON payer (business_id, created_at DESC, payer_id) WHERE deleted_at IS NULL;
-- searchTerm: substring match on the unaccented, lower-cased text.
CREATE INDEX payer_search_trgm_idx ON payer USING gin (search_text gin_trgm_ops) WHERE deleted_at IS NULL;

CREATE TABLE payment_instrument (
  payment_instrument_id      uuid PRIMARY KEY,
  business_id                uuid NOT NULL REFERENCES business,
  merchant_id                uuid NOT NULL REFERENCES merchant,
  payer_id                   uuid NOT NULL REFERENCES payer,
  payment_method_id          uuid NOT NULL REFERENCES payment_method,
  payment_instrument_type_id uuid REFERENCES payment_instrument_type,
  country_id                 uuid NOT NULL REFERENCES country,
  countries                  text[] NOT NULL,
  status                     text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE')),
  active                     boolean NOT NULL DEFAULT true,
  validated                  boolean NOT NULL DEFAULT false,
  -- What a gateway hands back; never a full card number.
  external_id                varchar(128),
  card_brand                 varchar(32),
  card_last4                 char(4) CHECK (card_last4 ~ '^[0-9]{4}$'),
  metadata                   jsonb,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  updated_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_instrument_payer_idx ON payment_instrument (payer_id, created_at DESC);
CREATE INDEX payment_instrument_merchant_idx ON payment_instrument (merchant_id, created_at DESC);

CREATE TABLE payment_intent (
  payment_intent_id     uuid PRIMARY KEY,
  business_id           uuid NOT NULL REFERENCES business,
  merchant_id           uuid NOT NULL REFERENCES merchant,
  payer_id              uuid REFERENCES payer,
  payment_instrument_id uuid REFERENCES payment_instrument,
  country_id            uuid NOT NULL REFERENCES country,
  origin                text NOT NULL CHECK (origin IN ('API', 'FAST', 'LINK', 'B2B')),
  payin_type            text NOT NULL CHECK (payin_type IN ('DEFAULT', 'TRANSFER')),
  status                text NOT NULL CHECK (status IN ('REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION',
                          'PROCESSING', 'SUCCEEDED', 'CANCELED', 'PARTIALLY_REFUNDED', 'REFUNDED')),
  currency              char(3) NOT NULL,
  -- Integer minor units. amount: gross with VAT, without tip.
  amount                bigint NOT NULL CHECK (amount > 0),
  tax_amount            bigint NOT NULL CHECK (tax_amount >= 0 AND tax_amount <= amount),
  tip_amount            bigint NOT NULL DEFAULT 0 CHECK (tip_amount >= 0),
  received_amount       bigint NOT NULL DEFAULT 0 CHECK (received_amount >= 0),
  vat_rate_bp           integer NOT NULL CHECK (vat_rate_bp BETWEEN 0 AND 10000),
  exchange_rate         numeric(18, 8) NOT NULL DEFAULT 1,
  external_reference    varchar(128),
  external_charge_id    varchar(128),
  external_invoice_id   varchar(128),
  invoice_number        bigint,
  invoice_email         varchar(128),
  description           varchar(512),
  last_payment_error    text,
  receipt_email         varchar(128),
  setup_future_usage    boolean NOT NULL DEFAULT false,
  off_session           boolean NOT NULL DEFAULT false,
  metadata              jsonb,
  link_id               uuid,
  cancelled_at          timestamptz,
  cancellation_reason   text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
-- Money may still move towards collection in these states (payer deletion checks them).
CREATE INDEX payment_intent_payer_open_idx ON payment_intent (payer_id)
  WHERE status IN ('REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION', 'PROCESSING');
CREATE INDEX payment_intent_merchant_idx ON payment_intent (merchant_id, created_at DESC);
CREATE INDEX payment_intent_instrument_idx ON payment_intent (payment_instrument_id) WHERE payment_instrument_id IS NOT NULL;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE payment_intent, payment_instrument, payer;
DROP FUNCTION pcs_search_text(text);`);
  }
}

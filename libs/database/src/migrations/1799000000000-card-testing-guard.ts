import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The card-testing guard of the public pages (contract §30): a merchant's
 * settings (null: the defaults); where each attempt started from a public page
 * came from (by payment intent: the address and the sale, a link or a B2B
 * checkout, of the latest start); the marks counted (attempts and declines, each
 * with its address, card and sale keys: keyed hashes, never an address, a BIN or
 * last four in clear); and the blocks, one per card, address or sale while it
 * lasts (their hints: an address with its last part masked, a fingerprint's first
 * characters).
 */
export class CardTestingGuard1799000000000 implements MigrationInterface {
  name = 'CardTestingGuard1799000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE merchant_configuration ADD COLUMN card_testing_guard jsonb;

CREATE TABLE card_testing_origin (
  payment_intent_id uuid PRIMARY KEY REFERENCES payment_intent (payment_intent_id) ON DELETE CASCADE,
  merchant_id       uuid NOT NULL,
  page              text NOT NULL CHECK (page IN ('LINK', 'CHECKOUT', 'SANDBOX')),
  address_key       text NOT NULL CHECK (address_key ~ '^[0-9a-f]{64}$'),
  address_hint      text NOT NULL,
  sale_key          text CHECK (sale_key ~ '^[0-9a-f]{64}$'),
  sale_id           uuid,
  card_key          text CHECK (card_key ~ '^[0-9a-f]{64}$'),
  at                timestamptz NOT NULL
);

CREATE TABLE card_testing_mark (
  mark_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  merchant_id uuid NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('ATTEMPT', 'DECLINE')),
  address_key text NOT NULL CHECK (address_key ~ '^[0-9a-f]{64}$'),
  card_key    text CHECK (card_key ~ '^[0-9a-f]{64}$'),
  sale_key    text CHECK (sale_key ~ '^[0-9a-f]{64}$'),
  at          timestamptz NOT NULL
);
CREATE INDEX card_testing_mark_address_idx ON card_testing_mark (merchant_id, address_key, kind, at);
CREATE INDEX card_testing_mark_card_idx ON card_testing_mark (merchant_id, card_key, at) WHERE card_key IS NOT NULL;
CREATE INDEX card_testing_mark_sale_idx ON card_testing_mark (merchant_id, sale_key, at) WHERE sale_key IS NOT NULL;
CREATE INDEX card_testing_mark_at_idx ON card_testing_mark (at);

CREATE TABLE card_testing_block (
  card_testing_block_id uuid PRIMARY KEY,
  merchant_id           uuid NOT NULL REFERENCES merchant (merchant_id),
  scope                 text NOT NULL CHECK (scope IN ('CARD', 'ADDRESS', 'LINK')),
  subject_key           text NOT NULL CHECK (subject_key ~ '^[0-9a-f]{64}$'),
  reason                text NOT NULL CHECK (reason IN ('DECLINES_PER_CARD', 'DECLINES_PER_ADDRESS', 'ATTEMPTS_PER_ADDRESS', 'DECLINES_PER_LINK')),
  count                 integer NOT NULL CHECK (count > 0),
  hint                  text NOT NULL,
  page                  text NOT NULL CHECK (page IN ('LINK', 'CHECKOUT', 'SANDBOX')),
  sale_id               uuid,
  started_at            timestamptz NOT NULL,
  until                 timestamptz NOT NULL CHECK (until > started_at)
);
CREATE INDEX card_testing_block_subject_idx ON card_testing_block (merchant_id, subject_key, until);
CREATE INDEX card_testing_block_merchant_idx ON card_testing_block (merchant_id, started_at DESC);
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE card_testing_block;
DROP TABLE card_testing_mark;
DROP TABLE card_testing_origin;
ALTER TABLE merchant_configuration DROP COLUMN card_testing_guard;
`);
  }
}

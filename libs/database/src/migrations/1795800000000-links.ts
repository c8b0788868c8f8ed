import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment links (operations 24, 29–35). A link's status is derived from
 * `used` and `expiration_date` when read, so expiry needs no sweep; the
 * indexes serve every listing filter (tenant, merchant, status) newest first.
 */
export class Links1795800000000 implements MigrationInterface {
  name = 'Links1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TABLE link (
  link_id            uuid PRIMARY KEY,
  business_id        uuid NOT NULL REFERENCES business,
  merchant_id        uuid NOT NULL REFERENCES merchant,
  country_id         uuid NOT NULL REFERENCES country,
  currency           char(3) NOT NULL,
  -- Integer minor units, VAT included.
  amount             bigint NOT NULL CHECK (amount > 0 AND amount <= 999999999999),
  vat_rate_bp        integer NOT NULL CHECK (vat_rate_bp >= 0),
  description        varchar(255),
  reference          varchar(128),
  expiration_date    timestamptz NOT NULL,
  used               boolean NOT NULL DEFAULT false,
  used_at            timestamptz,
  payment_intent_id  uuid REFERENCES payment_intent,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  CHECK (used = (payment_intent_id IS NOT NULL))
);
CREATE INDEX link_business_created_idx ON link (business_id, created_at DESC, link_id) WHERE deleted_at IS NULL;
CREATE INDEX link_merchant_created_idx ON link (merchant_id, created_at DESC, link_id) WHERE deleted_at IS NULL;
CREATE INDEX link_business_state_idx ON link (business_id, used, expiration_date) WHERE deleted_at IS NULL;
CREATE INDEX link_merchant_state_idx ON link (merchant_id, used, expiration_date) WHERE deleted_at IS NULL;

CREATE TABLE link_country_processor (
  link_country_processor_id  uuid PRIMARY KEY,
  link_id                    uuid NOT NULL REFERENCES link,
  country_processor_id       uuid NOT NULL REFERENCES country_processor,
  CONSTRAINT link_country_processor_unique UNIQUE (link_id, country_processor_id)
);

ALTER TABLE payment_intent ADD CONSTRAINT payment_intent_link_fk FOREIGN KEY (link_id) REFERENCES link;
CREATE UNIQUE INDEX payment_intent_link_idx ON payment_intent (link_id) WHERE link_id IS NOT NULL;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP INDEX payment_intent_link_idx;
ALTER TABLE payment_intent DROP CONSTRAINT payment_intent_link_fk;
DROP TABLE link_country_processor, link;`);
  }
}

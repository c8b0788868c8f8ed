import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saving a card without charging it (contract §31): what an instrument keeps of its card besides the brand and
 * the last four (the BIN and the expiry: never the number or the code), and the setups, each a hosted page a payer
 * opens once to save a card; one made by dunning names its subscription, whose open invoices the card then pays.
 */
export class CardSetup1799200000000 implements MigrationInterface {
  name = 'CardSetup1799200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payment_instrument
  ADD COLUMN card_bin varchar(8) CHECK (card_bin ~ '^([0-9]{6}|[0-9]{8})$'),
  ADD COLUMN card_exp_month smallint CHECK (card_exp_month BETWEEN 1 AND 12),
  ADD COLUMN card_exp_year smallint CHECK (card_exp_year BETWEEN 2000 AND 2199);

CREATE TABLE payment_instrument_setup (
  setup_id              uuid PRIMARY KEY,
  business_id           uuid NOT NULL,
  merchant_id           uuid NOT NULL REFERENCES merchant (merchant_id),
  payer_id              uuid NOT NULL REFERENCES payer (payer_id),
  country_processor_id  uuid,
  return_url            text NOT NULL,
  subscription_id       uuid,
  status                text NOT NULL CHECK (status IN ('OPEN', 'COMPLETED')),
  payment_instrument_id uuid REFERENCES payment_instrument (payment_instrument_id),
  expires_at            timestamptz NOT NULL,
  created_at            timestamptz NOT NULL,
  completed_at          timestamptz,
  CHECK ((status = 'COMPLETED') = (payment_instrument_id IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX payment_instrument_setup_merchant ON payment_instrument_setup (business_id, merchant_id, created_at DESC);

ALTER TABLE subscription ADD COLUMN card_expires_at timestamptz, ADD COLUMN card_expiry_noticed boolean NOT NULL DEFAULT false;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE subscription DROP COLUMN card_expires_at, DROP COLUMN card_expiry_noticed;
DROP TABLE payment_instrument_setup;
ALTER TABLE payment_instrument DROP COLUMN card_bin, DROP COLUMN card_exp_month, DROP COLUMN card_exp_year;
`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * B2B payment intents and their hosted checkout (operations B5–B7, contract
 * §13). A B2B intent is a payment intent (origin 'B2B'); its checkout holds
 * what only the B2B API needs: the opaque reference of the checkout URL, the
 * credentials whose secret signs the return to the merchant, the merchant's
 * redirectUrl, the invoice details and when the checkout expires. The methods
 * a B2B intent allows live on the intent, so that every way of paying it
 * (the checkout, operations 20 and 21) honours them.
 */
export class B2bCheckout1796000000000 implements MigrationInterface {
  name = 'B2bCheckout1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payment_intent ADD COLUMN allowed_payment_methods text[];

CREATE TABLE b2b_checkout (
  payment_intent_id            uuid PRIMARY KEY REFERENCES payment_intent,
  reference                    varchar(64) NOT NULL UNIQUE,
  credential_id                uuid NOT NULL REFERENCES api_credential,
  redirect_url                 varchar(2048) NOT NULL,
  include_all_payment_methods  boolean NOT NULL,
  invoice_details              jsonb,
  expires_at                   timestamptz NOT NULL,
  created_at                   timestamptz NOT NULL DEFAULT now()
);

-- B5: the business's B2B intents newest first, by merchant, by external reference, by date.
CREATE INDEX payment_intent_b2b_business_idx ON payment_intent (business_id, created_at DESC) WHERE origin = 'B2B';
CREATE INDEX payment_intent_b2b_merchant_idx ON payment_intent (merchant_id, created_at DESC) WHERE origin = 'B2B';
CREATE INDEX payment_intent_b2b_reference_idx ON payment_intent (business_id, external_reference) WHERE origin = 'B2B';
-- The checkout expiry sweep: only open B2B intents.
CREATE INDEX payment_intent_b2b_open_idx ON payment_intent (created_at)
  WHERE origin = 'B2B' AND status IN ('REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION');
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP INDEX payment_intent_b2b_open_idx;
DROP INDEX payment_intent_b2b_reference_idx;
DROP INDEX payment_intent_b2b_merchant_idx;
DROP INDEX payment_intent_b2b_business_idx;
DROP TABLE b2b_checkout;
ALTER TABLE payment_intent DROP COLUMN allowed_payment_methods;
`);
  }
}

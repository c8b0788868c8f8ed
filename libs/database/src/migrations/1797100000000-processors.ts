import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One gateway seam for every processor (contract §20): the merchants'
 * accounts in one table whatever the provider (each credential sealed under
 * its field's name, the same binding as before, so Mercado Pago's sealed
 * values open unchanged), and dLocal's side of each payment and refund.
 */
export class Processors1797100000000 implements MigrationInterface {
  name = 'Processors1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE gateway_account ADD COLUMN secrets_sealed jsonb, ADD COLUMN hints jsonb;
UPDATE gateway_account SET
  secrets_sealed = jsonb_build_object('accessToken', access_token_sealed, 'webhookSecret', webhook_secret_sealed),
  hints = jsonb_build_object('accessToken', access_token_hint);
ALTER TABLE gateway_account
  ALTER COLUMN secrets_sealed SET NOT NULL,
  ALTER COLUMN hints SET NOT NULL,
  DROP COLUMN access_token_sealed,
  DROP COLUMN webhook_secret_sealed,
  DROP COLUMN access_token_hint,
  DROP CONSTRAINT gateway_account_provider_check,
  ADD CONSTRAINT gateway_account_provider_check CHECK (provider IN ('MERCADO_PAGO', 'DLOCAL'));
-- Routing reads the merchant's accounts by method.
CREATE INDEX gateway_account_methods_idx ON gateway_account USING gin (payment_methods);

-- Our side of each dLocal payment (order_id = the attempt's id): written before the request, so an answer that is lost
-- still leaves what was asked; where to send the payer back; until when it can be paid.
CREATE TABLE dlocal_payment (
  payin_id     uuid PRIMARY KEY,
  merchant_id  uuid NOT NULL,
  payment_id   varchar(128),
  redirect_url text,
  return_url   text,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX dlocal_payment_payment_idx ON dlocal_payment (payment_id) WHERE payment_id IS NOT NULL;

-- Our side of each dLocal refund: dLocal has no idempotency key, so a refund is written here before it is sent, and a
-- retry after a lost answer reads the payment's refunds instead of sending a second one.
CREATE TABLE dlocal_refund (
  refund_id        uuid PRIMARY KEY,
  merchant_id      uuid NOT NULL,
  payment_id       varchar(128) NOT NULL,
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         char(3) NOT NULL,
  dlocal_refund_id varchar(128),
  sent_at          timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX dlocal_refund_dlocal_idx ON dlocal_refund (dlocal_refund_id) WHERE dlocal_refund_id IS NOT NULL;
CREATE INDEX dlocal_refund_payment_idx ON dlocal_refund (payment_id);
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE dlocal_refund, dlocal_payment;
DROP INDEX gateway_account_methods_idx;
DELETE FROM gateway_account WHERE provider <> 'MERCADO_PAGO';
ALTER TABLE gateway_account
  ADD COLUMN access_token_sealed text, ADD COLUMN webhook_secret_sealed text, ADD COLUMN access_token_hint varchar(8),
  DROP CONSTRAINT gateway_account_provider_check,
  ADD CONSTRAINT gateway_account_provider_check CHECK (provider IN ('MERCADO_PAGO'));
UPDATE gateway_account SET access_token_sealed = secrets_sealed ->> 'accessToken', webhook_secret_sealed = secrets_sealed ->> 'webhookSecret',
  access_token_hint = hints ->> 'accessToken';
ALTER TABLE gateway_account ALTER COLUMN access_token_sealed SET NOT NULL, ALTER COLUMN webhook_secret_sealed SET NOT NULL,
  ALTER COLUMN access_token_hint SET NOT NULL, DROP COLUMN secrets_sealed, DROP COLUMN hints;
`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A merchant's account at an outside processor (contract §16): its
 * credentials sealed at rest like API secrets (AES-256-GCM, bound to the
 * merchant and the field), and the payment methods routed to it.
 */
export class GatewayAccounts1796400000000 implements MigrationInterface {
  name = 'GatewayAccounts1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE gateway_account (
        merchant_id           uuid NOT NULL REFERENCES merchant,
        provider              varchar(32) NOT NULL CHECK (provider IN ('MERCADO_PAGO')),
        business_id           uuid NOT NULL,
        access_token_sealed   text NOT NULL,
        webhook_secret_sealed text NOT NULL,
        access_token_hint     varchar(8) NOT NULL,
        payment_methods       text[] NOT NULL CHECK (cardinality(payment_methods) > 0),
        created_at            timestamptz NOT NULL,
        updated_at            timestamptz NOT NULL,
        PRIMARY KEY (merchant_id, provider)
      );`);
    // Our side of each Checkout Pro preference: where to send the payer back, and until when it can be paid.
    await queryRunner.query(`
      CREATE TABLE mercado_pago_checkout (
        payin_id      uuid PRIMARY KEY,
        merchant_id   uuid NOT NULL,
        preference_id varchar(128) NOT NULL UNIQUE,
        init_point    varchar(2048) NOT NULL,
        return_url    varchar(2048),
        expires_at    timestamptz NOT NULL,
        created_at    timestamptz NOT NULL
      );`);
    // Each refund sent to Mercado Pago: the payment it refunds, and Mercado Pago's refund once it answered.
    await queryRunner.query(`
      CREATE TABLE mercado_pago_refund (
        refund_id     uuid PRIMARY KEY,
        merchant_id   uuid NOT NULL,
        payment_id    bigint NOT NULL,
        amount        numeric(16, 2) NOT NULL,
        mp_refund_id  bigint,
        created_at    timestamptz NOT NULL
      );`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mercado_pago_refund;`);
    await queryRunner.query(`DROP TABLE mercado_pago_checkout;`);
    await queryRunner.query(`DROP TABLE gateway_account;`);
  }
}

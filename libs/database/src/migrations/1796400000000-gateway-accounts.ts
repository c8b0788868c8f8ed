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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE gateway_account;`);
  }
}

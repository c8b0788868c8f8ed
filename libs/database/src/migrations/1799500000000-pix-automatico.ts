import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pix Automático (contract §31): the terms a payer authorised (a fixed amount, a periodicity, a first billing date) on
 * the instrument that holds the authorisation and on the setup that asks for it, with the processor's reference of the
 * authorisation and its journey's address while it is pending; and how long before a period a subscription's charge is
 * requested (Banco Central: 2 to 10 days before the billing date; 0 for cards, charged on the date). dLocal's record of a
 * scheduled payment keeps its billing date (pending until then, never a checkout nobody reached) and, for a retry, our
 * order id of the payment it retries (dLocal's retry keeps that order id: its notification finds our retry by it).
 */
export class PixAutomatico1799500000000 implements MigrationInterface {
  name = 'PixAutomatico1799500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_instrument ADD COLUMN pix_mandate jsonb`);
    await queryRunner.query(`ALTER TABLE payment_instrument_setup
      ADD COLUMN pix_mandate jsonb,
      ADD COLUMN pix_reference text,
      ADD COLUMN pix_authorise_url text`);
    await queryRunner.query(`ALTER TABLE dlocal_payment ADD COLUMN scheduled_date date, ADD COLUMN retry_of_order uuid`);
    await queryRunner.query(`CREATE INDEX dlocal_payment_retry_idx ON dlocal_payment (retry_of_order) WHERE retry_of_order IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE subscription ADD COLUMN charge_lead_seconds integer NOT NULL DEFAULT 0 CHECK (charge_lead_seconds BETWEEN 0 AND 864000)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE subscription DROP COLUMN charge_lead_seconds`);
    await queryRunner.query(`ALTER TABLE dlocal_payment DROP COLUMN scheduled_date, DROP COLUMN retry_of_order`);
    await queryRunner.query(
      `ALTER TABLE payment_instrument_setup DROP COLUMN pix_mandate, DROP COLUMN pix_reference, DROP COLUMN pix_authorise_url`,
    );
    await queryRunner.query(`ALTER TABLE payment_instrument DROP COLUMN pix_mandate`);
  }
}

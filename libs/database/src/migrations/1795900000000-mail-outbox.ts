import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mail outbox (contract §15): a message is written here in the
 * transaction that causes it, with its delivery job (pg-boss, same
 * transaction); the worker marks it SENT once the SMTP server took it.
 */
export class MailOutbox1795900000000 implements MigrationInterface {
  name = 'MailOutbox1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TABLE mail_message (
  mail_message_id  uuid PRIMARY KEY,
  to_address       varchar(254) NOT NULL,
  subject          varchar(255) NOT NULL,
  text_body        text NOT NULL,
  html_body        text NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING', 'SENT')),
  attempts         integer NOT NULL DEFAULT 0,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  sent_at          timestamptz
);
CREATE INDEX mail_message_pending_idx ON mail_message (created_at) WHERE status = 'PENDING';
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mail_message;`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 12 (performance).
 *
 * Cache invalidation: the tables processes keep in memory announce every
 * change on the `pcs_changes` channel from a trigger, so the notification is
 * part of the writing transaction (sent when it commits, never when it rolls
 * back) whoever writes: the APIs, the admin command, plain SQL. A new
 * credential or merchant needs no announcement: what is unknown is never kept.
 *
 * Payin counts: `payin_daily_count` holds how many payins each merchant has
 * per UTC day, status and currency, kept by statement triggers in the
 * transaction of every insert, update and delete of payins (transition
 * tables: one upsert per statement, a bulk insert included). The ledger's
 * rowCount sums days instead of counting rows; days only partly inside a date
 * range are counted exactly. Upserts go in key order, so concurrent writers
 * queue on a counter row instead of deadlocking.
 *
 * `pcs_require(ok, message)` aborts the statement it is part of unless `ok`:
 * a change written as one statement (no explicit transaction) checks a
 * condition it depends on, under the lock the condition takes, in the same
 * statement.
 *
 * The merchant's payin indexes also carry business_id: every ledger query
 * checks it with the merchant, and without it a count over an amount range
 * visited each matching row in the table (no index-only scan).
 */
export class Performance1796200000000 implements MigrationInterface {
  name = 'Performance1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE FUNCTION pcs_require(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'P0004', MESSAGE = 'requirement failed: ' || message;
  END IF;
  RETURN true;
END $$;

CREATE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pcs_changes', 'credential:' || COALESCE(NEW.api_key, OLD.api_key));
  IF TG_OP = 'UPDATE' AND NEW.api_key <> OLD.api_key THEN
    PERFORM pg_notify('pcs_changes', 'credential:' || OLD.api_key);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER api_credential_changed AFTER UPDATE OR DELETE ON api_credential
  FOR EACH ROW EXECUTE FUNCTION notify_credential_change();

CREATE FUNCTION notify_merchant_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pcs_changes', TG_ARGV[0] || ':' || COALESCE(NEW.merchant_id, OLD.merchant_id));
  IF TG_OP = 'UPDATE' AND NEW.merchant_id <> OLD.merchant_id THEN
    PERFORM pg_notify('pcs_changes', TG_ARGV[0] || ':' || OLD.merchant_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER merchant_changed AFTER UPDATE OR DELETE ON merchant
  FOR EACH ROW EXECUTE FUNCTION notify_merchant_change('merchant');
CREATE TRIGGER merchant_country_configuration_changed AFTER INSERT OR UPDATE OR DELETE ON merchant_country_configuration
  FOR EACH ROW EXECUTE FUNCTION notify_merchant_change('merchant-vat');

CREATE TABLE payin_daily_count (
  merchant_id  uuid NOT NULL,
  day          date NOT NULL,
  status       text NOT NULL,
  currency     char(3) NOT NULL,
  business_id  uuid NOT NULL,
  n            bigint NOT NULL,
  PRIMARY KEY (merchant_id, day, status, currency)
);
CREATE INDEX payin_daily_count_business_idx ON payin_daily_count (business_id, day) INCLUDE (status, currency, n);

CREATE FUNCTION payin_daily_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, count(*)
  FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE FUNCTION payin_daily_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n)
  SELECT merchant_id, day, status, currency, business_id, sum(d)
  FROM (SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date AS day, status, currency, business_id, 1 AS d FROM new_rows
        UNION ALL
        SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, -1 FROM old_rows) AS change
  GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE FUNCTION payin_daily_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, -count(*)
  FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE TRIGGER payin_counted_insert AFTER INSERT ON payin REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_daily_count_insert();
CREATE TRIGGER payin_counted_update AFTER UPDATE ON payin REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_daily_count_update();
CREATE TRIGGER payin_counted_delete AFTER DELETE ON payin REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_daily_count_delete();

DROP INDEX payin_merchant_date_idx;
DROP INDEX payin_merchant_status_date_idx;
DROP INDEX payin_merchant_currency_amount_idx;
CREATE INDEX payin_merchant_date_idx ON payin (merchant_id, created_at DESC, transaction_id) INCLUDE (status, currency, amount, business_id);
CREATE INDEX payin_merchant_status_date_idx ON payin (merchant_id, status, created_at DESC) INCLUDE (currency, amount, business_id);
CREATE INDEX payin_merchant_currency_amount_idx ON payin (merchant_id, currency, amount) INCLUDE (status, created_at, business_id);

-- Counted after the triggers exist: creating them locked payin against writes until this commits.
INSERT INTO payin_daily_count (merchant_id, day, status, currency, business_id, n)
SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, count(*)
FROM payin GROUP BY 1, 2, 3, 4, 5;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP INDEX payin_merchant_date_idx;
DROP INDEX payin_merchant_status_date_idx;
DROP INDEX payin_merchant_currency_amount_idx;
CREATE INDEX payin_merchant_date_idx ON payin (merchant_id, created_at DESC, transaction_id) INCLUDE (status, currency, amount);
CREATE INDEX payin_merchant_status_date_idx ON payin (merchant_id, status, created_at DESC) INCLUDE (currency, amount);
CREATE INDEX payin_merchant_currency_amount_idx ON payin (merchant_id, currency, amount) INCLUDE (status, created_at);
DROP TRIGGER payin_counted_insert ON payin;
DROP TRIGGER payin_counted_update ON payin;
DROP TRIGGER payin_counted_delete ON payin;
DROP FUNCTION payin_daily_count_insert();
DROP FUNCTION payin_daily_count_update();
DROP FUNCTION payin_daily_count_delete();
DROP TABLE payin_daily_count;
DROP TRIGGER merchant_country_configuration_changed ON merchant_country_configuration;
DROP TRIGGER merchant_changed ON merchant;
DROP FUNCTION notify_merchant_change();
DROP TRIGGER api_credential_changed ON api_credential;
DROP FUNCTION notify_credential_change();
DROP FUNCTION pcs_require(boolean, text);
`);
  }
}

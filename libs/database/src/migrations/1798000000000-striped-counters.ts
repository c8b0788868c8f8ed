import { MigrationInterface, QueryRunner } from 'typeorm';

/** How many rows each hot key is spread over. */
const STRIPES = 8;

/**
 * Striped counters (docs/performance.md, "Refund"): the per-day and
 * per-amount payin counts and the balance figures were one row per merchant
 * and key, so every payment, refund and approval of one merchant updated the
 * same rows and waited on each other's row locks until commit. Each key is
 * now spread over STRIPES rows: a transaction adds to the stripe its own
 * transaction id picks (concurrent transactions have consecutive ids, so
 * they land on different rows), and every reader sums the stripes (they all
 * did already, with sum(): the balance figures' reader now groups too).
 * Existing rows stay on stripe 0.
 */
export class StripedCounters1798000000000 implements MigrationInterface {
  name = 'StripedCounters1798000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE FUNCTION pcs_counter_stripe() RETURNS smallint LANGUAGE sql VOLATILE AS
  $$ SELECT (pg_current_xact_id()::text::bigint % ${STRIPES})::smallint $$;

ALTER TABLE payin_daily_count ADD COLUMN stripe smallint NOT NULL DEFAULT 0;
ALTER TABLE payin_daily_count DROP CONSTRAINT payin_daily_count_pkey, ADD PRIMARY KEY (merchant_id, day, status, currency, stripe);
ALTER TABLE payin_amount_count ADD COLUMN stripe smallint NOT NULL DEFAULT 0;
ALTER TABLE payin_amount_count DROP CONSTRAINT payin_amount_count_pkey, ADD PRIMARY KEY (merchant_id, currency, status, bucket, stripe);
ALTER TABLE balance_figure ADD COLUMN stripe smallint NOT NULL DEFAULT 0;
ALTER TABLE balance_figure DROP CONSTRAINT balance_figure_pkey, ADD PRIMARY KEY (merchant_id, currency, available_from, stripe);

CREATE OR REPLACE FUNCTION payin_daily_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n, stripe)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, count(*), pcs_counter_stripe()
  FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION payin_daily_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n, stripe)
  SELECT merchant_id, day, status, currency, business_id, sum(d), pcs_counter_stripe()
  FROM (SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date AS day, status, currency, business_id, 1 AS d FROM new_rows
        UNION ALL
        SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, -1 FROM old_rows) AS change
  GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION payin_daily_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n, stripe)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, -count(*), pcs_counter_stripe()
  FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION payin_amount_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n, stripe)
    SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, count(*), pcs_counter_stripe()
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n, stripe)
    SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, -count(*), pcs_counter_stripe()
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n, stripe)
    SELECT merchant_id, currency, status, bucket, business_id, sum(d), pcs_counter_stripe()
    FROM (SELECT merchant_id, currency, status, pcs_amount_bucket(amount) AS bucket, business_id, 1 AS d FROM new_rows
          UNION ALL
          SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, -1 FROM old_rows) AS change
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket, stripe) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION balance_figure_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_figure AS f (merchant_id, currency, available_from, net, stripe)
  SELECT merchant_id, currency, CASE WHEN available_on <= created_at THEN '-infinity'::timestamptz ELSE available_on END, sum(net),
         pcs_counter_stripe()
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, currency, available_from, stripe) DO UPDATE SET net = f.net + EXCLUDED.net;
  RETURN NULL;
END $$;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Each key's stripes summed back into one row, then the functions as the earlier migrations made them.
    await queryRunner.query(`
CREATE TEMP TABLE summed_daily AS SELECT merchant_id, day, status, currency, business_id, sum(n)::bigint AS n FROM payin_daily_count GROUP BY 1, 2, 3, 4, 5;
DELETE FROM payin_daily_count;
ALTER TABLE payin_daily_count DROP CONSTRAINT payin_daily_count_pkey, DROP COLUMN stripe, ADD PRIMARY KEY (merchant_id, day, status, currency);
INSERT INTO payin_daily_count (merchant_id, day, status, currency, business_id, n) SELECT * FROM summed_daily;
CREATE TEMP TABLE summed_amount AS SELECT merchant_id, currency, status, bucket, business_id, sum(n)::bigint AS n FROM payin_amount_count GROUP BY 1, 2, 3, 4, 5;
DELETE FROM payin_amount_count;
ALTER TABLE payin_amount_count DROP CONSTRAINT payin_amount_count_pkey, DROP COLUMN stripe, ADD PRIMARY KEY (merchant_id, currency, status, bucket);
INSERT INTO payin_amount_count (merchant_id, currency, status, bucket, business_id, n) SELECT * FROM summed_amount;
CREATE TEMP TABLE summed_figure AS SELECT merchant_id, currency, available_from, sum(net)::bigint AS net FROM balance_figure GROUP BY 1, 2, 3;
DELETE FROM balance_figure;
ALTER TABLE balance_figure DROP CONSTRAINT balance_figure_pkey, DROP COLUMN stripe, ADD PRIMARY KEY (merchant_id, currency, available_from);
INSERT INTO balance_figure (merchant_id, currency, available_from, net) SELECT * FROM summed_figure;
DROP TABLE summed_daily, summed_amount, summed_figure;

CREATE OR REPLACE FUNCTION payin_daily_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, count(*)
  FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION payin_daily_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE FUNCTION payin_daily_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payin_daily_count AS c (merchant_id, day, status, currency, business_id, n)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, business_id, -count(*)
  FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, day, status, currency) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION payin_amount_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n)
    SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n)
    SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO payin_amount_count AS c (merchant_id, currency, status, bucket, business_id, n)
    SELECT merchant_id, currency, status, bucket, business_id, sum(d)
    FROM (SELECT merchant_id, currency, status, pcs_amount_bucket(amount) AS bucket, business_id, 1 AS d FROM new_rows
          UNION ALL
          SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, -1 FROM old_rows) AS change
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, currency, status, bucket) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION balance_figure_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_figure AS f (merchant_id, currency, available_from, net)
  SELECT merchant_id, currency, CASE WHEN available_on <= created_at THEN '-infinity'::timestamptz ELSE available_on END, sum(net)
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, currency, available_from) DO UPDATE SET net = f.net + EXCLUDED.net;
  RETURN NULL;
END $$;
DROP FUNCTION pcs_counter_stripe();
`);
  }
}

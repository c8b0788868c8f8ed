import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 23: the ledger's exact total over an amount range without visiting
 * every row in it.
 *
 * `payin_amount_count` holds how many payins each merchant has per currency,
 * status and amount bucket: buckets of two significant digits of the amount
 * in minor units (0–99 one each; then 100, 110, …, 990, 1000, 1100, … so each
 * bucket is at most a ninetieth of its decade), from `pcs_amount_bucket`,
 * mirrored by `amountBucket` in libs/payments. It is kept like
 * payin_daily_count: statement triggers with transition tables, upserts in
 * key order, in the transaction of every write of payins. The ledger's total
 * for an amount range in one currency (no date bounds) sums the buckets wholly
 * inside the range and counts, row by row on the currency-amount index, only
 * the one bucket each end of the range cuts.
 */
export class PayinAmountCount1796800000000 implements MigrationInterface {
  name = 'PayinAmountCount1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE FUNCTION pcs_amount_bucket(amount bigint) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN amount < 100 THEN amount
              ELSE amount - amount % (10::numeric ^ (length(amount::text) - 2))::bigint END
$$;

CREATE TABLE payin_amount_count (
  merchant_id  uuid NOT NULL,
  currency     char(3) NOT NULL,
  status       text NOT NULL,
  bucket       bigint NOT NULL,
  business_id  uuid NOT NULL,
  n            bigint NOT NULL,
  PRIMARY KEY (merchant_id, currency, status, bucket)
);
CREATE INDEX payin_amount_count_business_idx ON payin_amount_count (business_id, currency, bucket) INCLUDE (status, n);

CREATE FUNCTION payin_amount_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER payin_amount_counted_insert AFTER INSERT ON payin REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_amount_count_change();
CREATE TRIGGER payin_amount_counted_update AFTER UPDATE ON payin REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_amount_count_change();
CREATE TRIGGER payin_amount_counted_delete AFTER DELETE ON payin REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payin_amount_count_change();

-- Counted after the triggers exist: creating them locked payin against writes until this commits.
INSERT INTO payin_amount_count (merchant_id, currency, status, bucket, business_id, n)
SELECT merchant_id, currency, status, pcs_amount_bucket(amount), business_id, count(*)
FROM payin GROUP BY 1, 2, 3, 4, 5;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TRIGGER payin_amount_counted_insert ON payin;
DROP TRIGGER payin_amount_counted_update ON payin;
DROP TRIGGER payin_amount_counted_delete ON payin;
DROP FUNCTION payin_amount_count_change();
DROP TABLE payin_amount_count;
DROP FUNCTION pcs_amount_bucket(bigint);
`);
  }
}

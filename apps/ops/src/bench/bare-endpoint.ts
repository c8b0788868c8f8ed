import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { Pool } from 'pg';

/**
 * The ceiling to compare against: node:http + pg, no framework. Verifies one
 * HMAC of the body and inserts one row comparable to a payment intent's.
 * Run as its own process by the benchmark: BENCH_* variables configure it.
 */
const secret = process.env.BENCH_SECRET as string;
const pool = new Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const context = JSON.parse(process.env.BENCH_CONTEXT as string) as {
  businessId: string;
  merchantId: string;
  payerId: string;
  countryId: string;
};

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const raw = Buffer.concat(chunks);
    const expected = crypto.createHmac('sha256', secret).update(raw).digest();
    const given = Buffer.from(String(request.headers.signature ?? ''), 'hex');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      response.writeHead(401).end();
      return;
    }
    const body = JSON.parse(raw.toString('utf8')) as { amount: number; currency: string; externalReference: string };
    const id = crypto.randomUUID();
    pool
      .query(
        `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, external_reference)
         VALUES ($1, $2, $3, $4, $5, 'API', 'DEFAULT', 'REQUIRES_PAYMENT_INSTRUMENT', $6, $7, $8, 2200, $9)`,
        [
          id,
          context.businessId,
          context.merchantId,
          context.payerId,
          context.countryId,
          body.currency,
          Math.round(body.amount * 100),
          Math.round((body.amount * 100 * 22) / 122),
          body.externalReference,
        ],
      )
      .then(
        () => {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ paymentIntentId: id }));
        },
        () => response.writeHead(500).end(),
      );
  });
});

server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

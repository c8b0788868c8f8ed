import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { Pool } from 'pg';
import { CREATION_INSERT, CreationContext, creationRow } from './creation-row';

/**
 * The ceiling to compare against: node:http + pg, no framework. POST /
 * verifies one HMAC of the body and inserts one row comparable to a payment
 * intent's; GET /ledger verifies the HMAC of `{}` and runs the page query the
 * payins API runs for the same filters (the page only: no count); GET /balance
 * reads the merchant's maintained balance figures as the payins API does. Run
 * as its own process by the benchmark: BENCH_* variables configure it.
 */
const secret = process.env.BENCH_SECRET as string;
const pool = new Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const context = JSON.parse(process.env.BENCH_CONTEXT as string) as CreationContext;

function signed(request: http.IncomingMessage, payload: Buffer): boolean {
  const expected = crypto.createHmac('sha256', secret).update(payload).digest();
  const given = Buffer.from(String(request.headers.signature ?? ''), 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function insert(raw: Buffer, response: http.ServerResponse): void {
  const row = creationRow(context, JSON.parse(raw.toString('utf8')) as { amount: number; currency: string; externalReference: string });
  pool.query(CREATION_INSERT, row.values).then(
    () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ paymentIntentId: row.id })),
    () => response.writeHead(500).end(),
  );
}

/** The payins API's page query for these filters (merchant credentials, currency given, so amounts compare in minor units). */
function ledger(query: URLSearchParams, response: http.ServerResponse): void {
  const where = ['p.merchant_id = $1', 'p.business_id = $2'];
  const values: unknown[] = [context.merchantId, context.businessId];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replace('?', `$${values.length}`));
  };
  if (query.get('status')) add('p.status = ?', query.get('status'));
  if (query.get('currency')) add('p.currency = ?', query.get('currency'));
  if (query.get('dateFrom')) add('p.created_at >= ?', new Date(`${query.get('dateFrom')}T00:00:00Z`));
  if (query.get('dateUntil')) add('p.created_at <= ?', new Date(`${query.get('dateUntil')}T23:59:59.999Z`));
  if (query.get('minAmount')) add('p.amount >= ?', Math.round(Number(query.get('minAmount')) * 100));
  if (query.get('maxAmount')) add('p.amount <= ?', Math.round(Number(query.get('maxAmount')) * 100));
  const direction = query.get('order') === 'ASC' ? 'ASC' : 'DESC';
  const order =
    query.get('sort') === 'AMOUNT'
      ? `p.amount ${direction}, p.created_at DESC, p.transaction_id ASC`
      : `p.created_at ${direction}, p.transaction_id ASC`;
  pool
    .query(
      `SELECT p.* FROM payin p WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${Number(query.get('limit') ?? 20)} OFFSET 0`,
      values,
    )
    .then(
      (result) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: result.rows })),
      (error: Error) => response.writeHead(500).end(error.message),
    );
}

/** The balance read of contract §19: the merchant's maintained figures, summed per currency here. */
function balance(response: http.ServerResponse): void {
  pool
    .query(
      `SELECT currency, available_from, sum(net) AS net, available_from <= now() AS available FROM balance_figure WHERE merchant_id = $1
        GROUP BY currency, available_from ORDER BY currency, available_from`,
      [context.merchantId],
    )
    .then(
      (result) => {
        const figures: Record<string, { available: number; pending: number }> = {};
        for (const row of result.rows as { currency: string; net: string; available: boolean }[]) {
          const figure = (figures[row.currency] ??= { available: 0, pending: 0 });
          figure[row.available ? 'available' : 'pending'] += Number(row.net);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(figures));
      },
      (error: Error) => response.writeHead(500).end(error.message),
    );
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://bench');
    if (url.pathname === '/health') return void response.writeHead(200).end('{}');
    const raw = Buffer.concat(chunks);
    if (!signed(request, request.method === 'GET' ? Buffer.from('{}') : raw)) return void response.writeHead(401).end();
    if (request.method === 'GET' && url.pathname === '/ledger') return ledger(url.searchParams, response);
    if (request.method === 'GET' && url.pathname === '/balance') return balance(response);
    insert(raw, response);
  });
});

server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

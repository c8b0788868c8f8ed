import { getDataSourceToken } from '@nestjs/typeorm';
import { SignedClient } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { Testbed, testbed } from './testbed';

/**
 * Creating a payment intent for an existing payer (no instrument, no charge)
 * is one statement with no explicit transaction: the intent, its event and
 * its dispatch job are written only if the payer is still there, under the
 * same key-share lock the general path takes. A payer's deletion racing the
 * creation ends with one of them refused, never a deleted payer with an open
 * intent.
 */
describe('payment intent creation for an existing payer, in one statement', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let dataSource: DataSource;

  beforeAll(async () => {
    bed = await testbed({});
    ({ merchant } = bed);
    dataSource = bed.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => bed.close());

  const newPayer = async () =>
    ((await merchant.post('/payer', { firstName: 'Race', lastName: 'Payer', email: 'race@example.com' })).body as { payerId: string })
      .payerId;
  const create = (payerId: string, externalReference = 'fast') =>
    merchant.post('/payment-intent', {
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference,
      payerId,
      offSession: false,
      invoiceNumber: 7,
      country: 'URY',
    });
  const rowsOf = async (payerId: string) => {
    const [{ intents, events, jobs }] = await dataSource.query(
      `SELECT (SELECT count(*)::int FROM payment_intent WHERE payer_id = $1) AS intents,
              (SELECT count(*)::int FROM event e JOIN payment_intent i ON i.payment_intent_id = e.subject_id WHERE i.payer_id = $1) AS events,
              (SELECT count(*)::int FROM pgboss.job j JOIN event e ON j.data->>'eventId' = e.event_id::text
                 JOIN payment_intent i ON i.payment_intent_id = e.subject_id WHERE i.payer_id = $1) AS jobs`,
      [payerId],
    );
    return { intents, events, jobs };
  };

  it('writes the intent with the payer’s email, its created event and the event’s job', async () => {
    const payerId = await newPayer();
    const created = await create(payerId);
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('REQUIRES_PAYMENT_INSTRUMENT');
    expect(created.body.paymentIntent).toMatchObject({ externalReference: 'fast' });
    const [row] = await dataSource.query(`SELECT receipt_email, invoice_email FROM payment_intent WHERE payer_id = $1`, [payerId]);
    expect(row).toEqual({ receipt_email: 'race@example.com', invoice_email: 'race@example.com' });
    expect(await rowsOf(payerId)).toEqual({ intents: 1, events: 1, jobs: 1 });
  });

  it('writes nothing when the payer is deleted while the creation waits for it (404 PAYER_NOT_FOUND)', async () => {
    const payerId = await newPayer();
    // A deletion in progress: the payer held for update by another transaction.
    const deletion = dataSource.createQueryRunner();
    await deletion.connect();
    await deletion.startTransaction();
    await deletion.query(`SELECT 1 FROM payer WHERE payer_id = $1 FOR UPDATE`, [payerId]);
    // Sent now (a supertest request starts when it is awaited or then-ed).
    const creating = create(payerId).then((response) => response);
    // The creation has read the payer and now waits for its lock.
    for (let i = 0; i < 100; i++) {
      const [{ waiting }] = await dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH change AS (INSERT INTO "payment_intent"%'`,
      );
      if (waiting > 0) break;
      if (i === 99) throw new Error('the creation never waited for the payer');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await deletion.query(`UPDATE payer SET deleted_at = now() WHERE payer_id = $1`, [payerId]);
    await deletion.commitTransaction();
    await deletion.release();
    const refused = await creating;
    expect(refused.status).toBe(404);
    expect(refused.body.errorId).toBe('Payins:PAYER_NOT_FOUND');
    expect(await rowsOf(payerId)).toEqual({ intents: 0, events: 0, jobs: 0 });
  });

  it('never leaves a deleted payer with an open intent when deletion and creations race', async () => {
    for (let round = 0; round < 5; round++) {
      const payerId = await newPayer();
      const [deleted, ...creations] = await Promise.all([
        merchant.delete(`/payer/${payerId}`),
        ...Array.from({ length: 6 }, (_, i) => create(payerId, `race-${round}-${i}`)),
      ]);
      const made = creations.filter((r) => r.status === 200).length;
      for (const refused of creations.filter((r) => r.status !== 200)) expect(refused.body.errorId).toBe('Payins:PAYER_NOT_FOUND');
      const { intents } = await rowsOf(payerId);
      expect(intents).toBe(made);
      // Either the deletion went through and no intent exists, or it was refused because one did.
      if (deleted.status === 200) expect(made).toBe(0);
      else expect({ errorId: deleted.body.errorId, made: made > 0 }).toEqual({ errorId: 'Payins:ERROR_IN_DELETE_PAYER', made: true });
    }
  });
});

import { NestExpressApplication } from '@nestjs/platform-express';
import { sandboxCallbackKey, signCallback } from '@pcs/gateways';
import { EVENT_TYPES } from '@pcs/events';
import { EventDispatcher, EventRetention } from '@pcs/notifications';
import { clientFor, createTenant, errorShape, eventually, SignedClient, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';
import { ReceivedWebhook, WebhookReceiver } from './webhook-receiver';

type Processor = {
  countryProcessorId: string;
  paymentMethod: { paymentMethodName: string };
  paymentInstrumentType: { paymentInstrumentTypeName: string };
};

// Deliveries, retries and emails run on workers: on a loaded machine a test may need more than the default.
jest.setTimeout(60_000);

/** Contract §14 over signed HTTP: endpoints, signed deliveries with retries, the event log, redelivery, outcome emails. */
describe('events, webhooks and outcome emails', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let tenant: TestTenant;
  let business: SignedClient;
  let merchant: SignedClient;
  let payerId: string;
  let inbox: Inbox;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    bed = await testbed({
      merchants: 2,
      payer: { firstName: 'Ana', lastName: 'Pereira' },
      mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null },
      // One retry a second later, then failed; a receiver that never answers is given up on after 1.5 s.
      webhooks: { retryScheduleSeconds: [1, 1], timeoutMs: 1500 },
    });
    ({ app, tenant, business, merchant, payerId } = bed);
  });
  afterAll(async () => {
    await bed.close();
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await inbox.stop();
  });

  // Each test's endpoints go with it, so that no test's events reach another's receivers.
  let registered: [SignedClient, string][] = [];
  afterEach(async () => {
    for (const [client, id] of registered) await client.delete(`/webhook-endpoint/${id}`);
    registered = [];
  });

  const receiver = async () => {
    const started = await new WebhookReceiver().start();
    receivers.push(started);
    return started;
  };
  const register = async (client: SignedClient, body: Record<string, unknown>) => {
    const created = await client.post('/webhook-endpoint', body);
    expect(created.status).toBe(200);
    registered.push([client, created.body.webhookEndpointId]);
    return created.body as { webhookEndpointId: string; secret: string; enabledEvents: string[]; merchantId: string | null };
  };
  /** Verified as a receiver would, by the standardwebhooks package: throws on a bad signature. */
  const verify = (secret: string, webhook: ReceivedWebhook) => new Webhook(secret).verify(webhook.body, webhook.headers);

  const newIntent = async (client = merchant, extra: Record<string, unknown> = {}) => {
    const created = await client.post('/payment-intent', {
      currency: 'UYU',
      amount: 1220,
      payinType: 'DEFAULT',
      externalReference: `order-${crypto.randomUUID().slice(0, 8)}`,
      payerId,
      offSession: false,
      invoiceNumber: 1,
      country: 'URY',
      ...extra,
    });
    expect(created.status).toBe(200);
    return created.body.paymentIntent as { paymentIntentId: string; externalReference: string };
  };
  const initialize = async (intentId: string, client = merchant) => {
    const methods = (await client.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Processor[];
    const visa = methods.find(
      (p) => p.paymentMethod.paymentMethodName === 'VISA' && p.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    const initialized = await client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: visa.countryProcessorId });
    expect(initialized.status).toBe(200);
    return initialized.body as { gatewayUrl: string; gatewayReferenceId: string };
  };
  const decide = (url: string, outcome: 'approve' | 'reject') =>
    request(app.getHttpServer()).post(new URL(url).pathname).type('form').send({ outcome });
  const pay = async (client = merchant) => {
    const intent = await newIntent(client);
    const attempt = await initialize(intent.paymentIntentId, client);
    expect((await decide(attempt.gatewayUrl, 'approve')).status).toBe(200);
    return { intent, attempt };
  };
  const eventDetail = (client: SignedClient, id: string) => client.get(`/event/${id}`).then((r) => r.body);

  it('delivers a payment to a registered endpoint, signed so standardwebhooks verifies it; logs it; redelivers it; emails the success', async () => {
    const shop = await receiver();
    const merchantId = tenant.merchants[0].merchantId;
    const configured = await business.put(`/merchant/${merchantId}/configuration`, {
      notificationEmails: ['ventas@tienda.uy'],
      paymentSuccessNotification: true,
      paymentErrorNotification: true,
    });
    expect(configured.status).toBe(200);
    const endpoint = await register(merchant, { url: shop.url, description: 'Tienda' });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    expect(endpoint).toMatchObject({ merchantId, disabled: false, description: 'Tienda', url: shop.url });
    // Every type by default (contract §14): payments, refunds, links, payouts, balances, reconciliation.
    expect(endpoint.enabledEvents).toEqual([...EVENT_TYPES]);
    // The secret is shown once: never in reads.
    const read = await merchant.get(`/webhook-endpoint/${endpoint.webhookEndpointId}`);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify((await merchant.get('/webhook-endpoint')).body)).not.toContain(endpoint.secret);

    const { intent } = await pay();
    // Order is not guaranteed (contract §14): wait for all three.
    const types = ['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.succeeded'];
    const received = await shop.waitFor((all) => types.every((type) => all.some((w) => w.event.type === type)));
    const mine = received.filter((w) => (w.event.data.object as { paymentIntentId?: string }).paymentIntentId === intent.paymentIntentId);
    expect(mine.map((w) => w.event.type)).toEqual(
      expect.arrayContaining(['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.succeeded']),
    );
    for (const webhook of mine) {
      expect(verify(endpoint.secret, webhook)).toEqual(JSON.parse(webhook.body));
      expect(webhook.headers['webhook-id']).toBe(webhook.event.id);
      expect(Math.abs(Number(webhook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(webhook.headers['content-type']).toBe('application/json');
      expect(webhook.event).toMatchObject({ businessId: tenant.business.businessId, merchantId });
    }
    // A tampered body fails verification: the check is real.
    expect(() => verify(endpoint.secret, { ...mine[0], body: mine[0].body.replace('1220', '1221') })).toThrow();
    const byType = Object.fromEntries(mine.map((w) => [w.event.type, w.event]));
    expect(byType['payment_intent.succeeded'].data.object).toMatchObject({
      paymentIntentId: intent.paymentIntentId,
      paymentIntentStatus: 'SUCCEEDED',
      totalAmount: 1220,
      receivedAmount: 1220,
      currency: 'UYU',
    });
    // The object is the resource as the payins API shows it (GET adds the intent's attempts, contract §26; events do not carry them).
    const { attempts, ...shown } = (await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).body;
    expect(attempts).toEqual([expect.objectContaining({ processor: 'SANDBOX', status: 'APPROVED' })]);
    expect(byType['payment_intent.succeeded'].data.object).toEqual(shown);
    // One sequence per payment intent, increasing in the order things happened.
    expect(byType['payment_intent.created'].sequence).toBe(1);
    expect(byType['payment_intent.requires_action'].sequence).toBe(2);
    expect(byType['payment_intent.succeeded'].sequence).toBe(3);

    // The log: newest first, with every delivery and attempt.
    const listed = await merchant.get('/event?type=payment_intent.succeeded&limit=5');
    expect(listed.status).toBe(200);
    expect(listed.body[0]).toMatchObject({ currentPage: '1', pageSize: '5' });
    const logged = listed.body[0].results.find((e: { id: string }) => e.id === byType['payment_intent.succeeded'].id);
    expect(logged).toEqual(JSON.parse(mine.find((w) => w.event.type === 'payment_intent.succeeded')!.body));
    const detail = await eventually(
      () => eventDetail(merchant, logged.id),
      (d) => d.deliveries?.[0]?.delivered === true,
    );
    expect(detail.deliveries).toEqual([
      {
        webhookEndpointId: endpoint.webhookEndpointId,
        url: shop.url,
        delivered: true,
        attempts: [{ at: expect.any(String), status: 200, error: null, durationMs: expect.any(Number) }],
      },
    ]);

    // Redelivery: the same event (same webhook-id, same bytes) arrives again, freshly signed.
    const before = shop.received.length;
    const redelivered = await merchant.post(`/event/${logged.id}/redeliver`, {});
    expect(redelivered.status).toBe(200);
    const again = (await shop.waitFor((all) => all.length > before)).slice(before).find((w) => w.event.id === logged.id)!;
    expect(again.body).toBe(mine.find((w) => w.event.type === 'payment_intent.succeeded')!.body);
    verify(endpoint.secret, again);
    const afterRedelivery = await eventually(
      () => eventDetail(merchant, logged.id),
      (d) => d.deliveries[0].attempts.length === 2 && d.deliveries[0].delivered,
    );
    expect(afterRedelivery.deliveries[0].attempts.map((a: { status: number }) => a.status)).toEqual([200, 200]);

    // The success email, at the notification address, once.
    const about = () => inbox.messages.filter((m) => m.subject?.includes(intent.externalReference));
    for (let i = 0; i < 200 && about().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const success = about();
    expect(success).toHaveLength(1);
    expect(success[0].to).toMatchObject({ text: 'ventas@tienda.uy' });
    expect(success[0].subject).toContain('pago cobrado / payment succeeded');
    expect(success[0].text).toContain('se cobró un pago de 1.220,00 UYU');
    expect(success[0].text).toContain('a payment of 1,220.00 UYU succeeded');
    expect(success[0].text).toContain(`Merchant 1 of ${tenant.business.name}`);
    expect(success[0].text).toContain('VISA');
    expect(success[0].html).toContain('Medio de pago: VISA');
  });

  it('emails a failed attempt once even when the gateway repeats its callback, and announces refunds', async () => {
    const shop = await receiver();
    const configured = await business.put(`/merchant/${tenant.merchants[0].merchantId}/configuration`, {
      notificationEmails: ['ventas@tienda.uy'],
      paymentErrorNotification: true,
    });
    expect(configured.status).toBe(200);
    await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.payment_failed', 'refund.created', 'refund.succeeded'] });
    const intent = await newIntent();
    const attempt = await initialize(intent.paymentIntentId);
    const callback = { eventId: `${attempt.gatewayReferenceId}:9`, reference: attempt.gatewayReferenceId, outcome: 'REJECTED' };
    const raw = JSON.stringify(callback);
    const key = sandboxCallbackKey(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY as string, 'base64'));
    const send = () =>
      request(app.getHttpServer())
        .post('/gateway/callbacks/sandbox')
        .set('content-type', 'application/json')
        .set('x-sandbox-signature', signCallback(key, raw))
        .send(raw);
    expect((await send()).body.result).toBe('applied');
    expect((await send()).body.result).toBe('replayed');
    const failed = await shop.waitFor((all) => all.some((w) => w.event.type === 'payment_intent.payment_failed'));
    expect(failed.filter((w) => w.event.type === 'payment_intent.payment_failed')).toHaveLength(1);
    const about = () => inbox.messages.filter((m) => m.subject?.includes(intent.externalReference));
    for (let i = 0; i < 200 && about().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // time for a second email, if one were coming
    const emails = about();
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toContain('pago fallido / payment failed');
    expect(emails[0].text).toContain('Motivo:');

    // Refunds: filtered in, signed, numbered in their payment intent's sequence.
    const { intent: paid } = await pay();
    expect((await merchant.post(`/payment-intent/${paid.paymentIntentId}/refund`, { requestedRefundAmount: 100 })).status).toBe(200);
    const refunds = await shop.waitFor((all) => all.filter((w) => w.event.type.startsWith('refund.')).length >= 2);
    // Arrival order is not guaranteed (contract §14); the sequence tells the order things happened in.
    const ofPaid = refunds
      .filter((w) => w.event.type.startsWith('refund.') && w.event.data.object.paymentIntentId === paid.paymentIntentId)
      .sort((a, b) => a.event.sequence - b.event.sequence);
    expect(ofPaid.map((w) => w.event.type)).toEqual(['refund.created', 'refund.succeeded']);
    expect(ofPaid[0].event.data.object).toMatchObject({ transactionType: 'REFUND', status: 'PENDING', amount: 100 });
    expect(ofPaid[1].event.data.object).toMatchObject({ transactionType: 'REFUND', status: 'APPROVED', amount: 100 });
    // The intent's sequence: created 1, requires_action 2, succeeded 3, refund.created 4, partially_refunded 5, refund.succeeded 6.
    expect(ofPaid.map((w) => w.event.sequence)).toEqual([4, 6]);
    const partially = (await merchant.get(`/event?type=payment_intent.partially_refunded&limit=5`)).body[0].results.find(
      (e: { data: { object: { paymentIntentId: string } } }) => e.data.object.paymentIntentId === paid.paymentIntentId,
    );
    expect(partially.sequence).toBe(5);
    // Nothing it did not ask for.
    expect(shop.received.every((w) => ['payment_intent.payment_failed', 'refund.created', 'refund.succeeded'].includes(w.event.type))).toBe(
      true,
    );
  });

  it('announces a dispute by webhook and emails every notification address when it opens, whatever the settings (contract §21)', async () => {
    const shop = await receiver();
    const merchantId = tenant.merchants[0].merchantId;
    const configured = await business.put(`/merchant/${merchantId}/configuration`, {
      notificationEmails: ['disputas@tienda.uy', 'dueno@tienda.uy'],
      paymentSuccessNotification: false,
      paymentErrorNotification: false,
    });
    expect(configured.status).toBe(200);
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['dispute.created', 'dispute.accepted'] });
    const { intent, attempt } = await pay();
    // The payer's bank takes it back, from the sandbox page's button.
    const page = await request(app.getHttpServer())
      .post(new URL(attempt.gatewayUrl).pathname)
      .type('form')
      .send({ outcome: 'dispute', reason: 'PRODUCT_NOT_RECEIVED' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Se abrió la disputa');
    const created = await shop.waitFor((all) => all.some((w) => w.event.type === 'dispute.created'));
    const event = created.find((w) => w.event.type === 'dispute.created')!;
    verify(endpoint.secret, event);
    const dispute = event.event.data.object as { disputeId: string };
    expect(dispute).toMatchObject({
      paymentIntentId: intent.paymentIntentId,
      amount: 1220,
      reason: 'PRODUCT_NOT_RECEIVED',
      status: 'NEEDS_RESPONSE',
    });
    expect((await merchant.post(`/dispute/${dispute.disputeId}/accept`)).status).toBe(200);
    const accepted = await shop.waitFor((all) => all.some((w) => w.event.type === 'dispute.accepted'));
    expect(accepted.find((w) => w.event.type === 'dispute.accepted')!.event.data.object).toMatchObject({ status: 'ACCEPTED' });

    const about = () => inbox.messages.filter((m) => m.subject?.includes(dispute.disputeId));
    for (let i = 0; i < 200 && about().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // time for a third email, if one were coming
    const emails = about();
    expect(emails.map((m) => (m.to as { text: string }).text).sort()).toEqual(['disputas@tienda.uy', 'dueno@tienda.uy']);
    expect(emails[0].subject).toContain('disputa abierta / dispute opened');
    expect(emails[0].text).toContain('se descontaron 1.220,00 UYU de su saldo');
    expect(emails[0].text).toContain("the payer's bank disputed a payment");
    expect(emails[0].text).toMatch(/until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  });

  it('retries a receiver that is down at first until it accepts, recording every attempt', async () => {
    const shop = await receiver();
    // The first two attempts of each event fail (the receiver is "down"), the third is accepted.
    shop.answer = (_index, webhook) => (shop.received.filter((w) => w.event.id === webhook.event.id).length < 2 ? 503 : 200);
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    const intent = await newIntent();
    const ofIntent = (all: ReceivedWebhook[]) => all.filter((w) => w.event.data.object.paymentIntentId === intent.paymentIntentId);
    const received = ofIntent(await shop.waitFor((all) => ofIntent(all).length >= 3));
    expect(received.map((w) => w.event.id)).toEqual([received[0].event.id, received[0].event.id, received[0].event.id]);
    for (const webhook of received) verify(endpoint.secret, webhook);
    const detail = await eventually(
      () => eventDetail(merchant, received[0].event.id),
      (d) => d.deliveries[0].delivered,
    );
    expect(detail.deliveries[0].attempts.map((a: { status: number; error: string | null }) => [a.status, a.error])).toEqual([
      [503, 'the receiver answered 503'],
      [503, 'the receiver answered 503'],
      [200, null],
    ]);
    const pending = (await merchant.get('/event?delivered=false&limit=100')).body[0].results.map((e: { id: string }) => e.id);
    expect(pending).not.toContain(received[0].event.id);
  });

  it('gives up on a receiver that never answers after the schedule, and marks the delivery failed', async () => {
    const shop = await receiver();
    shop.answer = () => 'hang';
    await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    await newIntent();
    const [first] = await shop.waitFor((all) => all.length >= 1);
    const detail = await eventually(
      () => eventDetail(merchant, first.event.id),
      (d) => d.deliveries[0]?.attempts.length === 3,
      30,
    );
    expect(detail.deliveries[0].delivered).toBe(false);
    for (const attempt of detail.deliveries[0].attempts) {
      expect(attempt).toMatchObject({ status: null, error: 'no answer within 1.5 s' });
      expect(attempt.durationMs).toBeGreaterThanOrEqual(1400);
    }
    const failed = (await merchant.get('/event?delivered=false&limit=100')).body[0].results.map((e: { id: string }) => e.id);
    expect(failed).toContain(first.event.id);
    const [{ status }] = await bed.dataSource.query(`SELECT status FROM webhook_delivery WHERE event_id = $1`, [first.event.id]);
    expect(status).toBe('FAILED');
  });

  it('records a name that does not resolve as failed attempts, and goes on serving', async () => {
    // `.invalid` never resolves (RFC 6761): the system's own DNS answers, no stand-in.
    await register(merchant, { url: 'https://pcs-webhook-test.invalid/hook', enabledEvents: ['payment_intent.created'] });
    const intent = await newIntent();
    const events = (await merchant.get('/event?type=payment_intent.created&limit=20')).body[0].results as {
      id: string;
      data: { object: { paymentIntentId: string } };
    }[];
    const event = events.find((e) => e.data.object.paymentIntentId === intent.paymentIntentId)!;
    const detail = await eventually(
      () => eventDetail(merchant, event.id),
      (d) => d.deliveries[0]?.attempts.length === 3,
      30,
    );
    expect(detail.deliveries[0]).toMatchObject({ url: 'https://pcs-webhook-test.invalid/hook', delivered: false });
    for (const attempt of detail.deliveries[0].attempts) {
      expect(attempt).toMatchObject({ status: null, error: expect.stringMatching(/does not resolve|EAI_AGAIN/) });
    }
    // The process that tried is still serving (a read: a new event here would reach the next test's endpoint).
    expect((await merchant.get(`/payment-intent/${intent.paymentIntentId}`)).status).toBe(200);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const shop = await receiver();
    shop.answer = () => 410;
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    await newIntent();
    await shop.waitFor((all) => all.length >= 1);
    const disabled = await eventually(
      () => merchant.get(`/webhook-endpoint/${endpoint.webhookEndpointId}`).then((r) => r.body),
      (e) => e.disabled === true,
    );
    expect(disabled.disabled).toBe(true);
    await newIntent();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(shop.received).toHaveLength(1);
  });

  it('signs with both secrets during a rotation grace period, and with the new one alone afterwards', async () => {
    const shop = await receiver();
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    const rotated = await merchant.post(`/webhook-endpoint/${endpoint.webhookEndpointId}/rotate-secret`, { graceMinutes: 60 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await newIntent();
    const [graced] = await shop.waitFor((all) => all.length >= 1);
    expect(graced.headers['webhook-signature'].split(' ')).toHaveLength(2);
    verify(endpoint.secret, graced);
    verify(rotated.body.secret, graced);

    const immediate = await merchant.post(`/webhook-endpoint/${endpoint.webhookEndpointId}/rotate-secret`, { graceMinutes: 0 });
    await newIntent();
    const [, latest] = await shop.waitFor((all) => all.length >= 2);
    expect(latest.headers['webhook-signature'].split(' ')).toHaveLength(1);
    verify(immediate.body.secret, latest);
    expect(() => verify(rotated.body.secret, latest)).toThrow();
  });

  it("sends a business's endpoint all its merchants' events and a merchant's only its own", async () => {
    const all = await receiver();
    const second = await receiver();
    const firstOnly = await receiver();
    const otherMerchant = clientFor(app, tenant.merchants[1]);
    const forBusiness = await register(business, { url: all.url, enabledEvents: ['link.created'] });
    expect(forBusiness.merchantId).toBeNull();
    const forSecond = await register(business, {
      url: second.url,
      enabledEvents: ['link.created'],
      merchantId: tenant.merchants[1].merchantId,
    });
    expect(forSecond.merchantId).toBe(tenant.merchants[1].merchantId);
    await register(merchant, { url: firstOnly.url, enabledEvents: ['link.created'] });

    const linkOf = async (client: SignedClient) => {
      const relationships = (await client.get('/merchant-country-processor')).body as { merchantCountryProcessorId: string }[];
      const link = await client.post('/link', {
        amount: 100,
        vatPercentage: 22,
        currency: 'UYU',
        country: 'URY',
        merchantCountryProcessors: [relationships[0].merchantCountryProcessorId],
      });
      expect(link.status).toBe(200);
      return link.body.linkId as string;
    };
    const firstLink = await linkOf(merchant);
    const secondLink = await linkOf(otherMerchant);
    await all.waitFor((r) => r.length >= 2);
    await second.waitFor((r) => r.length >= 1);
    await firstOnly.waitFor((r) => r.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const linksOf = (r: WebhookReceiver) => r.received.map((w) => w.event.data.object.linkId).sort();
    expect(linksOf(all)).toEqual([firstLink, secondLink].sort());
    expect(linksOf(second)).toEqual([secondLink]);
    expect(linksOf(firstOnly)).toEqual([firstLink]);
    expect(all.received[0].event.data.object).toMatchObject({ status: 'ACTIVE', url: expect.stringContaining('/pay/') });

    // Each sees its own in the lists.
    const merchantList = (await otherMerchant.get('/webhook-endpoint')).body.map((e: { webhookEndpointId: string }) => e.webhookEndpointId);
    expect(merchantList).toEqual([forSecond.webhookEndpointId]);
    const businessList = (await business.get('/webhook-endpoint')).body.map((e: { webhookEndpointId: string }) => e.webhookEndpointId);
    expect(businessList).toEqual(expect.arrayContaining([forBusiness.webhookEndpointId, forSecond.webhookEndpointId]));
    const secondEvents = (await otherMerchant.get('/event?type=link.created')).body[0].results.map(
      (e: { data: { object: { linkId: string } } }) => e.data.object.linkId,
    );
    expect(secondEvents).toEqual([secondLink]);
  });

  it('refuses URLs webhooks may not reach and unknown event types with a 400, writing nothing', async () => {
    const count = async () => (await bed.dataSource.query(`SELECT count(*)::int AS n FROM webhook_endpoint`))[0].n;
    const before = await count();
    for (const url of [
      'http://shop.example.com/hook',
      'https://10.0.0.7/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://2130706433/hook',
      'https://localhost/hook',
      'https://user:pass@shop.example.com/hook',
      'ftp://shop.example.com/hook',
      'not a url',
    ]) {
      const refused = await merchant.post('/webhook-endpoint', { url });
      expect([url, refused.status]).toEqual([url, 400]);
      expect(refused.body).toMatchObject(errorShape('Payins:WEBHOOK_URL_NOT_ALLOWED'));
    }
    const unknownType = await merchant.post('/webhook-endpoint', {
      url: 'https://shop.example.com/hook',
      enabledEvents: ['payment_intent.exploded'],
    });
    expect(unknownType.status).toBe(400);
    for (const body of [
      { url: null },
      { url: ['https://a.example'] },
      { url: 'https://shop.example.com', enabledEvents: 'link.used' },
      { url: 'https://shop.example.com', extra: 1 },
    ]) {
      expect((await merchant.post('/webhook-endpoint', body)).status).toBe(400);
    }
    const endpoint = await register(merchant, { url: 'https://shop.example.com/hook' });
    expect((await merchant.patch(`/webhook-endpoint/${endpoint.webhookEndpointId}`, { url: 'https://10.1.1.1/x' })).status).toBe(400);
    expect((await merchant.post(`/webhook-endpoint/${endpoint.webhookEndpointId}/rotate-secret`, { graceMinutes: -1 })).status).toBe(400);
    expect(await count()).toBe(before + 1);
  });

  it("answers 404 to another tenant's endpoints and events, and changes nothing", async () => {
    const stranger = await createTenant(app);
    const shop = await receiver();
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    await newIntent();
    const [webhook] = await shop.waitFor((all) => all.length >= 1);
    const intruders: [string, SignedClient][] = [
      ['another business', clientFor(app, stranger.business)],
      ["another business's merchant", clientFor(app, stranger.merchants[0])],
      ['another merchant of the same business', clientFor(app, tenant.merchants[1])],
    ];
    for (const [who, client] of intruders) {
      const answers = await Promise.all([
        client.get(`/webhook-endpoint/${endpoint.webhookEndpointId}`),
        client.patch(`/webhook-endpoint/${endpoint.webhookEndpointId}`, { url: 'https://evil.example.com/x' }),
        client.delete(`/webhook-endpoint/${endpoint.webhookEndpointId}`),
        client.post(`/webhook-endpoint/${endpoint.webhookEndpointId}/rotate-secret`, {}),
        client.get(`/event/${webhook.event.id}`),
        client.post(`/event/${webhook.event.id}/redeliver`, {}),
        client.get(`/event?merchantId=${tenant.merchants[0].merchantId}`),
      ]);
      expect([who, answers.map((a) => a.status)]).toEqual([who, [404, 404, 404, 404, 404, 404, 404]]);
      expect(answers.map((a) => a.body.errorId)).toEqual([
        ...Array(4).fill('Payins:WEBHOOK_ENDPOINT_NOT_FOUND'),
        'Payins:EVENT_NOT_FOUND',
        'Payins:EVENT_NOT_FOUND',
        'Payins:MERCHANT_NOT_FOUND',
      ]);
      const list = await client.get('/event?limit=100');
      expect(list.body[0].results.map((e: { id: string }) => e.id)).not.toContain(webhook.event.id);
      expect((await client.get('/webhook-endpoint')).body.map((e: { webhookEndpointId: string }) => e.webhookEndpointId)).not.toContain(
        endpoint.webhookEndpointId,
      );
    }
    // A foreign merchant named on creation is a 404 too.
    expect(
      (await clientFor(app, stranger.business).post('/webhook-endpoint', { url: shop.url, merchantId: tenant.merchants[0].merchantId }))
        .status,
    ).toBe(404);
    expect((await merchant.get(`/webhook-endpoint/${endpoint.webhookEndpointId}`)).body.url).toBe(shop.url);
    expect(shop.received).toHaveLength(1);
  });

  it('updates, disables and deletes an endpoint; a disabled one cannot be redelivered to', async () => {
    const shop = await receiver();
    const endpoint = await register(merchant, { url: shop.url, enabledEvents: ['payment_intent.created'] });
    const patched = await merchant.patch(`/webhook-endpoint/${endpoint.webhookEndpointId}`, {
      description: 'Nuevo',
      enabledEvents: ['payment_intent.canceled', 'payment_intent.created'],
      disabled: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      description: 'Nuevo',
      enabledEvents: ['payment_intent.created', 'payment_intent.canceled'],
      disabled: true,
    });
    await newIntent();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(shop.received).toHaveLength(0);
    const [latest] = (await merchant.get('/event?type=payment_intent.created&limit=1')).body[0].results;
    const refused = await merchant.post(`/event/${latest.id}/redeliver`, { webhookEndpointId: endpoint.webhookEndpointId });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(errorShape('Payins:WEBHOOK_ENDPOINT_DISABLED'));
    await merchant.patch(`/webhook-endpoint/${endpoint.webhookEndpointId}`, { disabled: false });
    expect((await merchant.post(`/event/${latest.id}/redeliver`, { webhookEndpointId: endpoint.webhookEndpointId })).status).toBe(200);
    const [redelivered] = await shop.waitFor((all) => all.length >= 1);
    expect(redelivered.event.id).toBe(latest.id);
    expect((await merchant.delete(`/webhook-endpoint/${endpoint.webhookEndpointId}`)).body).toEqual({
      success: true,
      webhookEndpointId: endpoint.webhookEndpointId,
    });
    expect((await merchant.get(`/webhook-endpoint/${endpoint.webhookEndpointId}`)).status).toBe(404);
    expect((await merchant.get(`/event/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('keeps events 30 days: older ones go with their deliveries, younger ones stay', async () => {
    const endpoint = await register(merchant, { url: 'https://shop.example.com/hooks' });
    const age = (days: number) => new Date(Date.now() - days * 86_400_000);
    const copy = async (days: number) => {
      const id = crypto.randomUUID();
      await bed.dataSource.query(
        `INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at, dispatched_at)
         VALUES ($1, 'link.created', $2, $3, $4, 1, '{}', $5, now())`,
        [id, tenant.business.businessId, tenant.merchants[0].merchantId, crypto.randomUUID(), age(days)],
      );
      await bed.dataSource.query(
        `INSERT INTO webhook_delivery (webhook_delivery_id, event_id, webhook_endpoint_id, url, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'https://shop.example.com/hooks', 'DELIVERED', $4, $4)`,
        [crypto.randomUUID(), id, endpoint.webhookEndpointId, age(days)],
      );
      return id;
    };
    const [old, young, fresh] = [await copy(31), await copy(29), await copy(0)];
    await bed.app.get(EventRetention).run();
    const left = async (table: string) =>
      (await bed.dataSource.query(`SELECT event_id FROM ${table} WHERE event_id = ANY($1)`, [[old, young, fresh]]))
        .map((row: { event_id: string }) => row.event_id)
        .sort();
    expect(await left('event')).toEqual([young, fresh].sort());
    expect(await left('webhook_delivery')).toEqual([young, fresh].sort());
  });

  it('dispatches the rest of a batch when one of its events cannot be dispatched, and fails the batch for its retries', async () => {
    const insert = async (type: string, payload: string) => {
      const id = crypto.randomUUID();
      await bed.dataSource.query(
        `INSERT INTO event (event_id, type, business_id, merchant_id, subject_id, sequence, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, 1, $6, now())`,
        [id, type, tenant.business.businessId, tenant.merchants[0].merchantId, crypto.randomUUID(), payload],
      );
      return id;
    };
    // One transaction for both: the broken one's failure would roll back the fine one's dispatch too.
    // (An outcome event's object is read for its emails: unreadable bytes make its dispatch fail.)
    const [broken, fine] = [await insert('payment_intent.succeeded', 'not json'), await insert('link.created', '{"data":{"object":{}}}')];
    await expect(bed.app.get(EventDispatcher).dispatchBatch([broken, fine])).rejects.toThrow();
    const dispatched = await bed.dataSource.query(`SELECT event_id FROM event WHERE event_id = ANY($1) AND dispatched_at IS NOT NULL`, [
      [broken, fine],
    ]);
    expect(dispatched).toEqual([{ event_id: fine }]);
  });
});

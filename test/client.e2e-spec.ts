import { createPayinsClient, PayinsClient, uploadDisputeEvidence, verifyWebhook, WebhookVerificationError } from '@pcs/client';
import { DisputeReports } from '@pcs/disputes';
import { pdfFile, pngFile } from '@pcs/testing';
import type { AddressInfo } from 'node:net';
import { Testbed, testbed } from './testbed';
import { WebhookReceiver } from './webhook-receiver';

/**
 * A business client's integration, written only with libs/client (the typed
 * client generated from the committed OpenAPI documents): if a path, a field
 * or a type of the documents drifts from what the API does, this stops
 * compiling or fails. Real HTTP, signatures made by the client.
 */
describe('the typed client (libs/client) through a whole payment', () => {
  let bed: Testbed;
  let receiver: WebhookReceiver;
  let payins: PayinsClient;
  let baseUrl: string;

  beforeAll(async () => {
    bed = await testbed({ reachable: true, webhooks: { retryScheduleSeconds: [1, 1], timeoutMs: 1500 } });
    receiver = await new WebhookReceiver().start();
    baseUrl = `http://127.0.0.1:${(bed.app.getHttpServer().address() as AddressInfo).port}`;
    payins = createPayinsClient({ baseUrl, ...bed.tenant.merchants[0] });
  });
  afterAll(async () => {
    await bed.close();
    await receiver.stop();
  });

  it('creates a payer and an intent, pays at the sandbox, reads the ledger, refunds, and verifies the webhooks', async () => {
    const endpoint = await payins.POST('/webhook-endpoint', { body: { url: receiver.url, enabledEvents: ['payment_intent.succeeded'] } });
    expect(endpoint.response.status).toBe(200);
    const secret = endpoint.data!.secret;

    const payer = await payins.POST('/payer', { body: { firstName: 'Lucía', lastName: 'Gómez', email: 'lucia@example.uy' } });
    expect(payer.error).toBeUndefined();
    const payerId = payer.data!.payerId;

    const created = await payins.POST('/payment-intent', {
      body: {
        currency: 'UYU',
        amount: 1220,
        payinType: 'DEFAULT',
        offSession: false,
        payerId,
        country: 'URY',
        externalReference: 'client-1',
        invoiceNumber: 1,
      },
      headers: { 'Idempotency-Key': `client-${payerId}` },
    });
    expect(created.data?.status).toBe('REQUIRES_PAYMENT_INSTRUMENT');
    const paymentIntentId = created.data!.paymentIntent.paymentIntentId;

    const methods = await payins.GET('/payment-intent/{paymentIntentId}/payment-methods', { params: { path: { paymentIntentId } } });
    const visa = methods.data!.paymentIntentAvailablePaymentMethods.find(
      (method) =>
        method.paymentMethod.paymentMethodName === 'VISA' && method.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD',
    )!;
    const initialized = await payins.POST('/payment-intent/{paymentIntentId}/initialize', {
      params: { path: { paymentIntentId } },
      body: { countryProcessorId: visa.countryProcessorId },
    });
    expect(initialized.data?.paymentIntent.paymentIntentStatus).toBe('REQUIRES_ACTION');

    // The payer approves on the sandbox gateway's page (a form post, as the browser sends it).
    const approved = await fetch(initialized.data!.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=approve',
    });
    expect(approved.status).toBe(200);

    const ledger = await payins.GET('/payin', { params: { query: { status: 'APPROVED', limit: 10 } } });
    const [page] = ledger.data!;
    expect(page.results.find((payin) => payin.paymentIntentId === paymentIntentId)).toMatchObject({ amount: 1220, status: 'APPROVED' });

    // An empty refund refunds everything: the document lets a client send no body at all.
    const refunded = await payins.POST('/payment-intent/{paymentIntentId}/refund', { params: { path: { paymentIntentId } } });
    expect(refunded.data?.paymentIntentStatus).toBe('REFUNDED');

    const again = await payins.POST('/payment-intent/{paymentIntentId}/refund', { params: { path: { paymentIntentId } }, body: {} });
    expect(again.response.status).toBe(409);
    expect(again.error?.errorId).toBe('Payins:PAYMENT_INTENT_INVALID_STATE');

    const [webhook] = await receiver.waitFor((received) => received.length > 0);
    const event = verifyWebhook(secret, webhook.body, webhook.headers);
    expect(event).toMatchObject({ type: 'payment_intent.succeeded' });
    expect(() => verifyWebhook(secret, webhook.body.replace('succeeded', 'canceled'), webhook.headers)).toThrow(WebhookVerificationError);

    const removed = await payins.DELETE('/webhook-endpoint/{webhookEndpointId}', {
      params: { path: { webhookEndpointId: endpoint.data!.webhookEndpointId } },
    });
    expect(removed.data).toMatchObject({ success: true });
  });

  it('answers a typed error body for a wrong secret, and another merchant sees nothing of this one', async () => {
    const forged = createPayinsClient({ baseUrl, apiKey: bed.tenant.merchants[0].apiKey, apiSecret: 'not-the-secret' });
    const refused = await forged.GET('/payer', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ errorId: 'Auth:UNAUTHORIZED', showMessage: { EN: expect.any(String), ES: expect.any(String) } });

    const other = await testbed({ name: 'Another business' });
    try {
      const [mine] = (await payins.GET('/payer', {})).data!;
      const theirs = createPayinsClient({ baseUrl, ...other.tenant.merchants[0] });
      const look = await theirs.GET('/payer/{payerId}', { params: { path: { payerId: mine.results[0].payerId } } });
      expect(look.response.status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('answers a dispute with evidence files and submits it, the upload signed over its bytes (contract §21)', async () => {
    const payerId = (await payins.POST('/payer', { body: { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.uy' } })).data!.payerId;
    const paid = await payins.POST('/payment-intent', {
      body: {
        currency: 'UYU',
        amount: 300,
        payinType: 'DEFAULT',
        offSession: true,
        payerId,
        country: 'URY',
        externalReference: 'client-dispute',
        invoiceNumber: 2,
        paymentInstrumentData: { paymentMethodName: 'OCA' },
        confirm: true,
      },
    });
    expect(paid.data?.status).toBe('SUCCEEDED');
    const disputeId = await bed.app.get(DisputeReports).openSandbox({ paymentIntentId: paid.data!.paymentIntent.paymentIntentId });

    const files = [
      { name: 'win-receipt.pdf', type: 'application/pdf' as const, content: new Uint8Array(pdfFile()) },
      { name: 'label.png', type: 'image/png' as const, content: new Blob([new Uint8Array(pngFile())], { type: 'image/png' }) },
    ];
    const uploaded = await uploadDisputeEvidence(payins, disputeId, files, { idempotencyKey: `evidence-${disputeId}` });
    expect(uploaded.response.status).toBe(200);
    expect(uploaded.data!.evidence.map((e) => [e.fileName, e.contentType])).toEqual([
      ['win-receipt.pdf', 'application/pdf'],
      ['label.png', 'image/png'],
    ]);
    const replayed = await uploadDisputeEvidence(payins, disputeId, files, { idempotencyKey: `evidence-${disputeId}` });
    expect(replayed.data!.evidence).toHaveLength(2);
    const refused = await uploadDisputeEvidence(payins, disputeId, [
      { name: 'x.pdf', type: 'application/pdf', content: new Uint8Array([1, 2]) },
    ]);
    expect(refused.response.status).toBe(400);
    expect(refused.error?.errorId).toBe('Payins:INVALID_EVIDENCE');

    const submitted = await payins.POST('/dispute/{disputeId}/submit', { params: { path: { disputeId } } });
    expect(submitted.data?.status).toBe('UNDER_REVIEW');
    const listed = await payins.GET('/dispute', { params: { query: { status: 'UNDER_REVIEW', limit: 10 } } });
    expect(listed.data![0].results.map((d) => d.disputeId)).toContain(disputeId);
  });
});

import { clientFor, createTenant, errorShape, eventually } from '@pcs/testing';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';

/** Operation 34 over signed HTTP, delivered through the outbox and its worker to a real SMTP server (contract §12, §15). */
describe('sharing a link by email', () => {
  let bed: Testbed;
  let inbox: Inbox;
  let processors: string[];

  const newLink = async (extra: Record<string, unknown> = {}) => {
    const created = await bed.merchant.post('/link', {
      amount: 1234.5,
      vatPercentage: 22,
      currency: 'UYU',
      merchantCountryProcessors: processors,
      country: 'URY',
      description: 'Mesa <3> & café',
      ...extra,
    });
    expect(created.status).toBe(200);
    return created.body as { linkId: string; url: string };
  };
  const outbox = (to: string) =>
    bed.dataSource.query<{ status: string; attempts: number; last_error: string | null }[]>(
      `SELECT status, attempts, last_error FROM mail_message WHERE to_address = $1`,
      [to],
    );

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    bed = await testbed({ name: 'Café Sur', mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null } });
    const mine = (await bed.business.get(`/merchant-country-processor?merchantId=${bed.tenant.merchants[0].merchantId}`)).body as {
      merchantCountryProcessorId: string;
      countryProcessor: { paymentMethod: { paymentMethodName: string } };
    }[];
    processors = mine.filter((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'VISA').map((r) => r.merchantCountryProcessorId);
    expect(processors.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await bed.close();
    await inbox.stop();
  });

  it('emails the link in Spanish and English, as text and escaped HTML, once', async () => {
    const link = await newLink();
    const shared = await bed.merchant.post(`/link/${link.linkId}/share`, { receiverEmail: 'ana@example.uy', receiverName: ' Ana ' });
    expect(shared.status).toBe(200);
    expect(shared.body).toEqual({ success: true, linkId: link.linkId });

    const [mail] = (await inbox.waitFor(1)).filter((m) => m.subject?.includes('link de pago'));
    expect(mail).toBeDefined();
    expect((mail.to as { text: string }).text).toBe('ana@example.uy');
    expect(mail.subject).toContain('payment link');
    expect(mail.messageId).toMatch(/@payments>?$/);
    expect(mail.text).toContain('Hola Ana:');
    expect(mail.text).toContain('Hello Ana,');
    expect(mail.text).toContain(link.url);
    expect(mail.text).toContain('le envía un link de pago por 1.234,50 UYU.');
    expect(mail.text).toContain('sent you a payment link for 1,234.50 UYU.');
    expect(mail.text).toContain('Mesa <3> & café');
    expect(mail.html).toContain('Mesa &lt;3&gt; &amp; café');
    expect(mail.html).toContain(`href="${link.url}"`);
    expect(mail.html).toContain('lang="es"');
    expect(mail.html).toContain('lang="en"');
    // The worker marks the message sent once the SMTP server took it: a moment after the inbox has it.
    const rows = await eventually(
      () => outbox('ana@example.uy'),
      (found) => found.every((row) => row.status !== 'PENDING'),
    );
    expect(rows).toEqual([{ status: 'SENT', attempts: 1, last_error: null }]);
    // The worker has nothing more to send: the message is not sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(inbox.messages.filter((m) => (m.to as { text: string }).text === 'ana@example.uy')).toHaveLength(1);
  });

  it('rejects a bad receiver with 400 and queues nothing', async () => {
    const link = await newLink();
    for (const body of [
      { receiverEmail: 'not-an-email', receiverName: 'Ana' },
      { receiverEmail: 'bad@example.uy', receiverName: '' },
      { receiverEmail: 'bad@example.uy', receiverName: '   ' },
      { receiverEmail: 'bad@example.uy' },
      { receiverEmail: ['bad@example.uy'], receiverName: 'Ana' },
      { receiverEmail: null, receiverName: 'Ana' },
      { receiverEmail: `${'a'.repeat(130)}@example.uy`, receiverName: 'Ana' },
    ]) {
      const response = await bed.merchant.post(`/link/${link.linkId}/share`, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 400]);
      expect(response.body).toEqual(errorShape(/^Validation:/));
    }
    expect(await outbox('bad@example.uy')).toEqual([]);
  });

  it('shares only an ACTIVE link of the caller: used is 409, deleted and another tenant’s are 404, nothing queued', async () => {
    const used = await newLink();
    const paid = await bed.merchant.post(`/link/${used.linkId}/payment-intent`, {
      paymentInstrumentTypeName: 'CREDIT_CARD',
      paymentMethodName: 'VISA',
    });
    expect(paid.status).toBe(200);
    const receiver = { receiverEmail: 'nobody@example.uy', receiverName: 'Nadie' };
    expect((await bed.merchant.post(`/link/${used.linkId}/share`, receiver)).body).toEqual(errorShape('Payins:LINK_ALREADY_USED'));

    const deleted = await newLink();
    await bed.merchant.delete(`/link/${deleted.linkId}`);
    expect((await bed.merchant.post(`/link/${deleted.linkId}/share`, receiver)).status).toBe(404);

    const mine = await newLink();
    const other = await createTenant(bed.app, { name: 'Otra' });
    for (const credentials of [other.business, other.merchants[0]]) {
      const response = await clientFor(bed.app, credentials).post(`/link/${mine.linkId}/share`, receiver);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorShape(/NOT_FOUND/));
    }
    expect(await outbox('nobody@example.uy')).toEqual([]);
  });

  it('keeps the message while the SMTP server is down and delivers it once the server is back', async () => {
    const link = await newLink();
    await inbox.stop();
    const shared = await bed.merchant.post(`/link/${link.linkId}/share`, { receiverEmail: 'later@example.uy', receiverName: 'Luis' });
    expect(shared.status).toBe(200);
    const until = Date.now() + 20_000;
    let rows = await outbox('later@example.uy');
    while (!(rows[0]?.attempts > 0) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      rows = await outbox('later@example.uy');
    }
    expect(rows).toEqual([{ status: 'PENDING', attempts: expect.any(Number), last_error: expect.stringMatching(/ECONNREFUSED|connect/i) }]);
    const before = inbox.messages.length;
    await inbox.start();
    const messages = await inbox.waitFor(before + 1, 40);
    expect(messages.slice(before).map((m) => m.text?.includes('Hola Luis:'))).toEqual([true]);
    // The message reaches the server before the worker records it sent: the row follows.
    const sent = await eventually(
      async () => (await outbox('later@example.uy'))[0],
      (row) => row?.status === 'SENT',
    );
    expect(sent).toMatchObject({ status: 'SENT', last_error: null });
  });
});

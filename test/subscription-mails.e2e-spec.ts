import { SignedClient } from '@pcs/testing';
import { freePort } from './payins-app';
import { Inbox } from './smtp-inbox';
import { Testbed, testbed } from './testbed';

/**
 * The payer's mails of contract §31 through a real SMTP server: 3 days before each charge, and after each
 * declined one (when it is tried again, or that it will not be); queued in the transaction that decides them.
 */
describe('subscription mails to the payer (real SMTP)', () => {
  let inbox: Inbox;
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let instrumentId: string;
  /** The testbed names its merchants after the business. */
  const shop = 'Merchant 1 of Gimnasio Sur';

  beforeAll(async () => {
    inbox = new Inbox(await freePort());
    await inbox.start();
    bed = await testbed({
      name: 'Gimnasio Sur',
      payer: { firstName: 'Lucía', lastName: 'Suárez', email: 'lucia@example.uy' },
      mail: { smtpUrl: `smtp://127.0.0.1:${inbox.port}`, directory: null },
    });
    merchant = bed.merchant;
    merchantId = bed.tenant.merchants[0].merchantId;
    instrumentId = (await merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' })).body
      .paymentInstrumentId as string;
  });
  afterAll(async () => {
    await bed.close();
    await inbox.stop();
  });

  const subscribeOnClock = async (frozenTime: string, body: Record<string, unknown>) => {
    const clock = (await merchant.post('/test-clock', { merchantId, frozenTime })).body.testClockId as string;
    const made = await merchant.post('/subscription', {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: instrumentId,
      currency: 'UYU',
      interval: 'MONTH',
      intervalCount: 1,
      testClockId: clock,
      ...body,
    });
    expect(made.status).toBe(200);
    return { clock, subscriptionId: made.body.subscriptionId as string };
  };
  const advance = async (clock: string, to: string) =>
    expect((await merchant.post(`/test-clock/${clock}/advance`, { to })).status).toBe(200);
  const mailsTo = (subject: RegExp) => inbox.messages.filter((m) => subject.test(m.subject ?? ''));

  it('tells the payer 3 days before the charge what, when and for what, once per period', async () => {
    const { clock } = await subscribeOnClock('2027-03-01T12:00:00Z', {
      amount: 1250.5,
      startDate: '2027-03-10',
      description: 'Cuota mensual',
    });
    await advance(clock, '2027-03-06T12:00:00Z');
    expect(mailsTo(/upcoming charge/)).toHaveLength(0);
    await advance(clock, '2027-03-07T12:00:00Z');
    const [first] = (await inbox.waitFor(1)) && mailsTo(/upcoming charge/);
    expect(first.to).toMatchObject({ text: 'lucia@example.uy' });
    expect(first.subject).toBe(`${shop}: próximo cobro / upcoming charge`);
    expect(first.text).toContain(`${shop} cobrará 1.250,50 UYU el 10 de marzo de 2027 a su medio de pago guardado.`);
    expect(first.text).toContain(`${shop} will charge 1,250.50 UYU on March 10, 2027 to your saved payment method.`);
    expect(first.text).toContain('Concepto: Cuota mensual');
    // The next period's, 3 days before April 10; none twice.
    await advance(clock, '2027-04-08T12:00:00Z');
    await inbox.waitFor(2);
    const upcoming = mailsTo(/upcoming charge/);
    expect(upcoming).toHaveLength(2);
    expect(upcoming[1].text).toContain('el 10 de abril de 2027');
  });

  it('tells the payer of a declined charge when it is tried again, and that a hard decline will not be', async () => {
    const before = mailsTo(/payment declined/).length;
    const soft = await subscribeOnClock('2027-05-01T12:00:00Z', { amount: 300.13, description: 'Plan <básico>' });
    await advance(soft.clock, '2027-05-01T13:00:00Z');
    await inbox.waitFor(inbox.messages.length + 1);
    let declined = mailsTo(/payment declined/).slice(before);
    expect(declined).toHaveLength(1);
    expect(declined[0].text).toContain(`No pudimos cobrar 300,13 UYU de ${shop} (Plan <básico>) a su medio de pago.`);
    expect(declined[0].text).toContain('Lo intentaremos de nuevo el 2 de mayo de 2027.');
    expect(declined[0].html).toContain('Plan &lt;básico&gt;');
    expect(declined[0].text).not.toContain('insufficient funds');

    const hard = await subscribeOnClock('2027-06-01T12:00:00Z', { amount: 300.15, description: 'Plan anual' });
    await advance(hard.clock, '2027-06-01T13:00:00Z');
    await inbox.waitFor(inbox.messages.length + 1);
    declined = mailsTo(/payment declined/).slice(before);
    expect(declined).toHaveLength(2);
    expect(declined[1].text).toContain(`No lo volveremos a intentar con ese medio: indíquele otro a ${shop}.`);
    expect(declined[1].text).toContain(`It will not be tried again: give ${shop} another payment method.`);
  });
});

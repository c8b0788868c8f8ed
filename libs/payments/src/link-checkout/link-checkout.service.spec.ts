import type { CountryProcessor } from '@pcs/catalog';
import { asPaymentIntentId, Caller, Currency, Money } from '@pcs/kernel';
import type { LinkId, LinkService, LinkView } from '@pcs/links';
import type { LinkPaymentIntentCommand, LinkPaymentIntentService } from '../creation/link-payment-intent.service';
import { linkIntent } from '../domain/payment-intent-origins';
import { attemptsWorld, BUSINESS_ID, MERCHANT_ID, NOW, VISA } from '../../test/in-memory-ports.fixture';
import { LinkCheckoutService } from './link-checkout.service';

/**
 * A link's hosted pay page (contract §12) on the context's ports in memory, with the link and the
 * payment from it as stand-ins: what the page shows at each step of the intent, choosing a method
 * (the intent made from the link once, then resumed), the page as the gateway's return address, a
 * gateway that verifies payers asking first for their details, and the page acting for the link's
 * merchant on that link only. In a real browser over HTTP: test/pay-page.e2e-spec.ts, test/links.e2e-spec.ts.
 */
const LINK_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' as LinkId;
const MASTER = {
  ...VISA,
  countryProcessorId: 'cp-master',
  paymentMethod: { paymentMethodId: 'pm-master', name: 'MASTER' },
} as CountryProcessor;

function world(options: { status?: string; processors?: CountryProcessor[] } = {}) {
  const w = attemptsWorld({ processors: options.processors ?? [VISA, MASTER] });
  const link = { linkId: LINK_ID, businessId: BUSINESS_ID, merchantId: MERCHANT_ID, paymentIntentId: null as string | null };
  let found = true;
  const view = (): LinkView =>
    ({
      link: { id: LINK_ID, snapshot: () => link },
      status: options.status ?? (link.paymentIntentId ? 'USED' : 'ACTIVE'),
      processors: [VISA, MASTER].map((p) => ({ countryProcessorId: p.countryProcessorId, countryProcessor: p })),
      url: `https://pay.example/l/${LINK_ID}`,
    }) as unknown as LinkView;
  const links = { findForPayer: (id: LinkId) => Promise.resolve(found && id === LINK_ID ? view() : null) } as unknown as LinkService;
  const made: Array<{ caller: Caller; command: LinkPaymentIntentCommand }> = [];
  const linkPayments = {
    create: (caller: Caller, _linkId: LinkId, command: LinkPaymentIntentCommand) => {
      made.push({ caller, command });
      const intent = linkIntent(
        {
          paymentIntentId: asPaymentIntentId('9e8d7c6b-5a49-4382-9160-5f4e3d2c1b0a'),
          businessId: BUSINESS_ID,
          merchantId: MERCHANT_ID,
          countryId: 'ury',
          amount: Money.ofMinor(45000, Currency.UYU),
          vatRateBp: 2200,
          createdAt: NOW,
        },
        { linkId: LINK_ID, reference: 'invoice-12' },
        {
          description: 'Clase de yoga',
          preferredPaymentMethod: command.paymentMethodName,
          preferredInstrumentType: null,
          additionalInfo: null,
        },
      );
      w.intents.put(intent);
      link.paymentIntentId = intent.id;
      return Promise.resolve(intent);
    },
  } as unknown as LinkPaymentIntentService;
  const service = new LinkCheckoutService(
    w.unitOfWork,
    links,
    w.merchants,
    linkPayments,
    w.attempts,
    w.available,
    w.intents,
    w.payins,
    w.registry,
    w.installmentQuotes,
    w.cardTesting,
  );
  const intent = () => w.intents.read(link.paymentIntentId!)!;
  return { ...w, service, link, made, intent, gone: () => (found = false) };
}

describe('LinkCheckoutService (on the ports, in memory)', () => {
  it('offers a fresh link’s active methods, and says GONE of a link it cannot find', async () => {
    const { service, gone } = world();
    const page = await service.page(LINK_ID);
    expect(page).toMatchObject({ kind: 'CHOOSE', merchantName: 'Tienda Pocitos', lastError: null });
    expect(page.kind === 'CHOOSE' && page.methods.map((m) => m.countryProcessorId)).toEqual(['cp-visa', 'cp-master']);
    gone();
    expect(await service.page(LINK_ID)).toEqual({ kind: 'GONE' });
    await expect(service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9')).rejects.toMatchObject({
      code: 'LINK_NOT_FOUND',
    });
  });

  it('pays from the link once a method is chosen, as the link’s merchant on that link only, and sends the payer to the gateway with the page to return to', async () => {
    const { service, made, gateway, intent, guardTold } = world();
    const started = await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9');
    expect(started).toEqual({ gatewayUrl: expect.stringContaining('https://sandbox.example/pay/') });
    // The card-testing guard (contract §30) is asked first, and told of the attempt: the link's merchant, the address, the link as the sale.
    const attempt = { page: 'LINK', merchantId: MERCHANT_ID, address: '203.0.113.9', saleId: LINK_ID };
    expect(guardTold).toEqual([
      { kind: 'refuseNewAttempt', detail: attempt },
      { kind: 'started', detail: { ...attempt, paymentIntentId: intent().id } },
    ]);
    expect(made).toEqual([
      {
        caller: { credentialId: `link:${LINK_ID}`, businessId: BUSINESS_ID, merchantId: MERCHANT_ID },
        command: { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA' },
      },
    ]);
    expect(gateway.checkouts).toEqual([
      expect.objectContaining({ amount: 45000, returnUrl: 'https://pay.example/l/back', title: 'Clase de yoga' }),
    ]);
    expect(intent().status).toBe('REQUIRES_ACTION');
    // Back on the page while the checkout is open: the way back to it.
    expect(await service.page(LINK_ID)).toMatchObject({
      kind: 'AT_GATEWAY',
      gatewayUrl: expect.stringContaining('https://sandbox.example/pay/'),
    });
  });

  it('resumes the link’s open intent on a second choice instead of paying from the link again, the earlier attempt replaced', async () => {
    const { service, made, payins, intent } = world();
    await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9');
    await service.start(LINK_ID, 'cp-master', 'https://pay.example/l/back', '203.0.113.9');
    expect(made).toHaveLength(1);
    expect(payins.ofIntent(intent().id, 'PAYIN').map((p) => [p.snapshot().countryProcessorId, p.snapshot().status])).toEqual([
      ['cp-visa', 'CANCELLED'],
      ['cp-master', 'PENDING'],
    ]);
  });

  it('refuses a method the link does not offer before paying from it', async () => {
    const { service, made, intents } = world();
    await expect(service.start(LINK_ID, 'cp-amex', 'https://pay.example/l/back', '203.0.113.9')).rejects.toMatchObject({
      code: 'COUNTRY_PROCESSOR_NOT_AVAILABLE',
    });
    expect(made).toEqual([]);
    expect(intents.rows.size).toBe(0);
  });

  it('asks first for the payer’s details at a gateway that verifies payers, again with what is wrong, then goes on', async () => {
    const { service, gateway } = world();
    gateway.payerIdentity = true;
    const ask = await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9');
    expect(ask).toMatchObject({ invalid: false, page: { kind: 'PAYER', step: { countryProcessorId: 'cp-visa', problems: [] } } });
    const wrong = await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9', {
      name: 'Ana',
      email: 'ana@example.uy',
      document: null,
    });
    expect(wrong).toMatchObject({
      invalid: true,
      page: { kind: 'PAYER', step: { problems: [expect.objectContaining({ field: 'document' })] } },
    });
    expect(gateway.checkouts).toEqual([]);
    const given = { name: 'Ana Pérez', email: 'ana@example.uy', document: '12345672', documentType: 'CI' };
    expect(await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9', given)).toHaveProperty('gatewayUrl');
    expect(gateway.checkouts[0].payer).toEqual(given);
  });

  it('shows the outcome: PROCESSING, then PAID; a rejection offers the methods again with the reason; an expired unused link EXPIRED', async () => {
    const { service, intents, intent } = world();
    await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9');
    intents.change(intent().id, (i) => i.fail('card declined', NOW));
    expect(await service.page(LINK_ID)).toMatchObject({ kind: 'CHOOSE', lastError: 'card declined' });
    await service.start(LINK_ID, 'cp-visa', 'https://pay.example/l/back', '203.0.113.9');
    intents.change(intent().id, (i) => i.markProcessing(NOW));
    expect(await service.page(LINK_ID)).toMatchObject({ kind: 'PROCESSING' });
    intents.change(intent().id, (i) => i.succeed('sbx-1', NOW));
    expect(await service.page(LINK_ID)).toMatchObject({ kind: 'PAID' });
    expect(await world({ status: 'EXPIRED' }).service.page(LINK_ID)).toMatchObject({ kind: 'EXPIRED', merchantName: 'Tienda Pocitos' });
  });
});

import { plainToInstance } from 'class-transformer';
import { asBusinessId, asMerchantId, Caller, Currency, InvalidRequestError, Money } from '@pcs/kernel';
import { asLinkId, Link } from '@pcs/links';
import type { LinkService } from '@pcs/links';
import type { LinkPaymentIntentService } from '@pcs/payments';
import { LinkController } from './link.controller';
import { CreateLinkDto, LinkPaymentIntentDto, ListLinksQuery, ShareLinkDto, UpdateLinkDto } from './dto/link-requests.dto';

/**
 * The links' controller against its services: one call per route, amounts
 * read as Money in the currency they are in (a new amount alone in the
 * link's own currency, a new currency alone re-reading the link's amount),
 * trimmed share addresses, and the link's representation back. The services
 * are jest stand-ins; test/links.e2e-spec.ts runs the routes over HTTP.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const linkId = asLinkId('6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d');
const now = new Date('2026-11-27T12:00:00Z');

function view(currency: Currency = Currency.ARS, minor = 1_220_000) {
  const link = Link.create(
    { linkId, businessId: caller.businessId, merchantId: asMerchantId(merchantId) },
    { amount: Money.ofMinor(minor, currency), vatRateBp: 2100, countryId: 'arg', countryProcessorIds: ['cp-1'] },
    { reference: 'membership-2027' },
    now,
  );
  return { link, status: 'ACTIVE' as const, processors: [], url: `https://pay.example/l/${linkId}` };
}

function controllerWith(current = view()) {
  const links = {
    list: jest.fn().mockResolvedValue({ items: [current], page: 1, limit: 10, total: 1 }),
    create: jest.fn().mockResolvedValue(current),
    get: jest.fn().mockResolvedValue(current),
    update: jest.fn().mockResolvedValue(current),
    validate: jest.fn().mockResolvedValue(current),
    share: jest.fn().mockResolvedValue(undefined),
    delete: jest.fn().mockResolvedValue(undefined),
  };
  const payments = { create: jest.fn() };
  const controller = new LinkController(links as unknown as LinkService, payments as unknown as LinkPaymentIntentService);
  return { controller, links, payments };
}

describe('LinkController', () => {
  it('creates with the amount as Money in minor units and the expiration as a date, and answers the link', async () => {
    const { controller, links } = controllerWith();
    const body = plainToInstance(CreateLinkDto, {
      amount: 12200,
      vatPercentage: 21,
      currency: 'ARS',
      merchantCountryProcessors: ['cp-1'],
      country: 'ARG',
      merchantId,
      reference: 'membership-2027',
      expirationDate: '2027-01-31T23:59:59Z',
    });
    const answer = await controller.create(caller, body);
    expect(links.create).toHaveBeenCalledWith(caller, {
      amount: Money.ofMinor(1_220_000, Currency.ARS),
      vatPercentage: 21,
      merchantCountryProcessors: ['cp-1'],
      country: 'ARG',
      merchantId,
      reference: 'membership-2027',
      expirationDate: new Date('2027-01-31T23:59:59Z'),
    });
    expect(answer).toMatchObject({ linkId, currency: 'ARS', amount: 12200, vatPercentage: 21, status: 'ACTIVE' });
  });

  it('lists with the merchant typed and the page asked', async () => {
    const { controller, links } = controllerWith();
    const answer = await controller.list(caller, plainToInstance(ListLinksQuery, { merchantId, status: 'ACTIVE', page: 2, limit: 5 }));
    expect(links.list).toHaveBeenCalledWith(caller, { merchantId, status: 'ACTIVE' }, { page: 2, limit: 5 });
    expect(answer).toHaveLength(1);
  });

  it('reads a new amount in the link’s currency, re-reads the link’s amount in a new currency, and asks nothing for other changes', async () => {
    const { controller, links } = controllerWith(view(Currency.ARS, 1_220_000));
    await controller.update(caller, linkId, plainToInstance(UpdateLinkDto, { amount: 13000 }));
    await controller.update(caller, linkId, plainToInstance(UpdateLinkDto, { currency: 'UYU' }));
    expect(links.get).toHaveBeenCalledTimes(2);
    expect(links.update.mock.calls.map(([, , changes]) => (changes as { amount?: Money }).amount)).toEqual([
      Money.ofMinor(1_300_000, Currency.ARS),
      Money.ofMinor(1_220_000, Currency.UYU),
    ]);
    links.get.mockClear();
    await controller.update(caller, linkId, plainToInstance(UpdateLinkDto, { reference: 'renewal' }));
    expect(links.get).not.toHaveBeenCalled();
    expect(links.update).toHaveBeenLastCalledWith(caller, linkId, expect.objectContaining({ amount: undefined, reference: 'renewal' }));
  });

  it('refuses a new amount with more decimals than the link’s currency has, changing nothing', async () => {
    const { controller, links } = controllerWith(view(Currency.ARS));
    await expect(controller.update(caller, linkId, plainToInstance(UpdateLinkDto, { amount: 1.005 }))).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(links.update).not.toHaveBeenCalled();
  });

  it('shares to the trimmed address and name, deletes, and answers the link’s id', async () => {
    const { controller, links } = controllerWith();
    const shared = await controller.share(
      caller,
      linkId,
      plainToInstance(ShareLinkDto, { receiverEmail: '  ana@example.uy ', receiverName: ' Ana ' }),
    );
    expect(links.share).toHaveBeenCalledWith(caller, linkId, { receiverEmail: 'ana@example.uy', receiverName: 'Ana' });
    expect(shared).toEqual({ success: true, linkId });
    expect(await controller.delete(caller, linkId)).toEqual({ success: true, linkId });
    expect(links.delete).toHaveBeenCalledWith(caller, linkId);
  });

  it('pays through the payments context with the Idempotency-Key, the link’s id typed', async () => {
    const { controller, payments } = controllerWith();
    payments.create.mockRejectedValue(new Error('stop here'));
    const body = plainToInstance(LinkPaymentIntentDto, { paymentInstrumentTypeName: 'CREDIT_CARD', paymentMethodName: 'VISA' });
    await expect(controller.pay(caller, linkId, body, 'key-1')).rejects.toThrow('stop here');
    expect(payments.create).toHaveBeenCalledWith(
      caller,
      linkId,
      expect.objectContaining({
        paymentInstrumentTypeName: 'CREDIT_CARD',
        paymentMethodName: 'VISA',
        paymentIntentAdditionalInfo: undefined,
      }),
      'key-1',
    );
  });
});

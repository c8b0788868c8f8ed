import { BusinessService } from '@pcs/businesses';
import { inTransaction } from '@pcs/database';
import { asPaymentIntentId, Caller, Currency, DomainError, Money } from '@pcs/kernel';
import { MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { LinkService } from './link.service';
import { LinksModule } from './links.module';

/** The links service with its real repository on PostgreSQL. */
describe('link service on PostgreSQL', () => {
  let services: ServiceContext;
  let links: LinkService;
  let caller: Caller;
  let processorIds: string[];

  beforeAll(async () => {
    services = await serviceContext([LinksModule]);
    links = services.get(LinkService);
    const business = await services.get(BusinessService).create('Link services');
    const merchant = await services
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
    const relationships = await services.get(MerchantCountryProcessorService).list(caller);
    processorIds = relationships
      .filter((r) => ['VISA', 'OCA'].includes(r.countryProcessor.paymentMethod.name))
      .map((r) => r.relationship.merchantCountryProcessorId);
  });
  afterAll(() => services.close());

  const create = (extra: { expirationDate?: Date } = {}) =>
    links.create(caller, {
      amount: Money.ofMinor(122000, Currency.UYU),
      vatPercentage: 22,
      merchantCountryProcessors: processorIds,
      country: 'URY',
      ...extra,
    });
  const paymentIntentRow = async (n: number) => {
    // A payment intent row to point at (the link's foreign key); the payment-intents context makes real ones.
    const id = asPaymentIntentId(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    await services.dataSource.query(
      `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, created_at, updated_at)
       SELECT $1, $2, $3, country_id, 'LINK', 'DEFAULT', 'REQUIRES_PAYMENT_INSTRUMENT', 'UYU', 122000, 22000, 2200, now(), now() FROM merchant WHERE merchant_id = $3`,
      [id, caller.businessId, caller.merchantId],
    );
    return id;
  };

  it('lets one of two concurrent payments of a link win: the other waits for the row and finds it used', async () => {
    const link = (await create()).link;
    const [first, second] = [await paymentIntentRow(1), await paymentIntentRow(2)];
    const pay = (paymentIntentId: typeof first) =>
      inTransaction(services.dataSource, async (manager) => {
        const locked = await links.loadForPayment(manager, caller, link.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await links.markUsed(manager, locked, paymentIntentId);
        return paymentIntentId;
      }).catch((error: unknown) => (error instanceof DomainError ? error.code : 'other'));
    const results = await Promise.all([pay(first), pay(second)]);
    expect(results.filter((r) => r === 'LINK_ALREADY_USED')).toHaveLength(1);
    const winner = results.find((r) => r !== 'LINK_ALREADY_USED');
    expect((await links.get(caller, link.id)).link.snapshot()).toMatchObject({ used: true, paymentIntentId: winner });
  });

  it('lists by status as of now, newest first, and hides deleted links', async () => {
    const active = (await create()).link;
    const expiring = (await create({ expirationDate: new Date(Date.now() + 300) })).link;
    const deleted = (await create()).link;
    await links.delete(caller, deleted.id);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const ids = async (status?: 'ACTIVE' | 'USED' | 'EXPIRED') =>
      (await links.list(caller, { status }, { page: 1, limit: 100 })).items.map((v) => v.link.id);
    expect(await ids('ACTIVE')).toContain(active.id);
    expect(await ids('ACTIVE')).not.toContain(expiring.id);
    expect(await ids('EXPIRED')).toEqual([expiring.id]);
    expect(await ids()).not.toContain(deleted.id);
    const all = await ids();
    expect(all.indexOf(deleted.id)).toBe(-1);
    expect(all.indexOf(expiring.id)).toBeLessThan(all.indexOf(active.id));
  });

  it('replaces the processors of an ACTIVE link when told to, keeping them otherwise', async () => {
    const link = (await create()).link;
    const narrowed = await links.update(caller, link.id, { merchantCountryProcessors: [processorIds[0]] });
    expect(narrowed.processors).toHaveLength(1);
    const repriced = await links.update(caller, link.id, { amount: Money.ofMinor(50000, Currency.UYU) });
    expect(repriced.processors.map((p) => p.countryProcessorId)).toEqual(narrowed.processors.map((p) => p.countryProcessorId));
    expect(repriced.link.snapshot().amount).toBe(50000);
  });
});

import { BusinessService } from '@pcs/businesses';
import { EventRecorder } from '@pcs/events';
import { asPaymentIntentId, Caller, Currency, DomainError, Money, PaymentIntentId } from '@pcs/kernel';
import { MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { LinkId } from './domain/link';
import { LinkService } from './link.service';
import { LinksModule } from './links.module';
import { transactionOf } from '@pcs/database';

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
    // A payment intent row to point at (the link's foreign key); the payments context makes real ones.
    const id = asPaymentIntentId(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    await services.dataSource.query(
      `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp, created_at, updated_at)
       SELECT $1, $2, $3, country_id, 'LINK', 'DEFAULT', 'REQUIRES_PAYMENT_INSTRUMENT', 'UYU', 122000, 22000, 2200, now(), now() FROM merchant WHERE merchant_id = $3`,
      [id, caller.businessId, caller.merchantId],
    );
    return id;
  };

  /** What operation 24 does with a link: read it, then write its use (with the intent, there) in one statement that finds the row or fails. */
  const pay = async (linkId: LinkId, paymentIntentId: PaymentIntentId, meanwhile?: () => Promise<unknown>) => {
    try {
      const payment = await links.forPayment(caller, linkId);
      await meanwhile?.();
      const use = await links.useOf(payment, paymentIntentId, new Date());
      await services.get(EventRecorder).recordAll(transactionOf(services.dataSource.manager), [use.event], {
        guards: [use.change],
      });
      return paymentIntentId;
    } catch (error) {
      if ((error as { driverError?: { code?: string } }).driverError?.code === 'P0004')
        return links.refusalOfUse(caller, linkId).then(
          () => 'changed',
          (refusal: unknown) => (refusal instanceof DomainError ? refusal.code : 'other'),
        );
      return error instanceof DomainError ? error.code : 'other';
    }
  };

  it('lets one of two concurrent payments of a link win: the other finds it used', async () => {
    const link = (await create()).link;
    const [first, second] = [await paymentIntentRow(1), await paymentIntentRow(2)];
    // Both read the link before either writes.
    let read = 0;
    const bothRead = () => {
      read += 1;
      return new Promise<void>((resolve) => {
        const wait = () => (read >= 2 ? resolve() : setTimeout(wait, 5));
        wait();
      });
    };
    const results = await Promise.all([pay(link.id, first, bothRead), pay(link.id, second, bothRead)]);
    expect(results.filter((r) => r === 'LINK_ALREADY_USED')).toHaveLength(1);
    const winner = results.find((r) => r !== 'LINK_ALREADY_USED');
    expect([first, second]).toContain(winner);
    expect((await links.get(caller, link.id)).link.snapshot()).toMatchObject({ used: true, paymentIntentId: winner });
    // A third finds it used at once.
    expect(await pay(link.id, await paymentIntentRow(3))).toBe('LINK_ALREADY_USED');
  });

  it('refuses the use of a link that changed after it was read (the payment is tried again), and of one deleted meanwhile', async () => {
    const changed = (await create()).link;
    const intent = await paymentIntentRow(4);
    expect(await pay(changed.id, intent, () => links.update(caller, changed.id, { description: 'Changed meanwhile' }))).toBe('changed');
    expect((await links.get(caller, changed.id)).link.snapshot().used).toBe(false);
    expect(await pay(changed.id, intent)).toBe(intent);
    const deleted = (await create()).link;
    expect(await pay(deleted.id, await paymentIntentRow(5), () => links.delete(caller, deleted.id))).toBe('LINK_NOT_FOUND');
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

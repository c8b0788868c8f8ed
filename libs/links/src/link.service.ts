/*
 * Why one file: a link's operations (create, validate, use, share, delete, list) over one aggregate and its
 * events.
 */
/**
 * Payment links (operations 29–35, contract §10): create, list, change,
 * delete, share by email, and their use by a payment. Over 300 lines because
 * a link's representation (its offers, its status at a time) is built once
 * here for every operation that answers one.
 */
import { Injectable } from '@nestjs/common';
import { CatalogService, Country, CountryProcessor } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import {
  basisPointsToVatPercentage,
  Caller,
  ChangeAlongside,
  DomainError,
  InvalidRequestError,
  MerchantId,
  Money,
  newId,
  Page,
  PageRequest,
  PaymentIntentId,
  tenantScope,
  Transaction,
  UnitOfWork,
  vatPercentageToBasisPoints,
} from '@pcs/kernel';
import { EventRecorder, NewEvent } from '@pcs/events';
import { MailOutbox } from '@pcs/mail';
import { MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { Link, LinkId, LinkStatus, LinkTerms } from './domain/link';
import { LinkView, linkRepresentation } from './link.representation';
import { linkShareEmail } from './link-share-email';
import { LinkRepository, StoredLinkProcessor } from './link.repository';

/** Operation 30's request (amount read at the edge). */
export interface CreateLinkCommand {
  readonly amount: Money;
  readonly vatPercentage: number;
  readonly merchantCountryProcessors: readonly string[];
  readonly country: string;
  readonly merchantId?: MerchantId;
  readonly description?: string;
  readonly reference?: string;
  readonly expirationDate?: Date;
}

/** Operation 31's request: what is sent changes. The amount's currency is the request's, or the link's. */
export interface UpdateLinkCommand {
  readonly amount?: Money;
  readonly vatPercentage?: number;
  readonly merchantCountryProcessors?: readonly string[];
  readonly description?: string;
  readonly reference?: string;
  readonly expirationDate?: Date;
}

export type { LinkView } from './link.representation';

/** A link read for a payment: the aggregate, its stored processors, the row's version, and the processors it offers. */
export interface LinkPayment {
  readonly link: Link;
  readonly processors: StoredLinkProcessor[];
  readonly version: string;
  readonly offers: CountryProcessor[];
}

@Injectable()
export class LinkService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: LinkRepository,
    private readonly merchants: MerchantService,
    private readonly relationships: MerchantCountryProcessorService,
    private readonly catalog: CatalogService,
    private readonly settings: RuntimeSettings,
    private readonly mail: MailOutbox,
    private readonly events: EventRecorder,
  ) {}

  /**
   * Operation 30. The merchant is the owner of the listed merchant country
   * processors (all of one merchant the caller may act for, each ACTIVE and
   * active, in the link's country, taking its currency); an ACTIVE merchant.
   */
  async create(caller: Caller, command: CreateLinkCommand): Promise<LinkView> {
    const country = await this.country(command.country);
    const link = await this.unitOfWork.run(async (tx) => {
      const { merchantId, terms } = await this.terms(
        tx,
        caller,
        country,
        command.amount,
        command.vatPercentage,
        command.merchantCountryProcessors,
        command.merchantId,
      );
      const now = new Date();
      const link = Link.create({ linkId: newId<LinkId>(), businessId: caller.businessId, merchantId }, terms, command, now);
      await this.links.insert(tx, link);
      await this.announce(tx, link, 'link.created');
      return link;
    });
    return (await this.views([link]))[0];
  }

  /** Operation 31: only an ACTIVE link changes (409 LINK_ALREADY_USED or LINK_EXPIRED otherwise). */
  async update(caller: Caller, linkId: LinkId, command: UpdateLinkCommand): Promise<LinkView> {
    const link = await this.unitOfWork.run(async (tx) => {
      const link = await this.load(tx, caller, linkId, true);
      const now = new Date();
      link.assertActive(now);
      const p = link.snapshot();
      const changesTerms = command.amount || command.vatPercentage !== undefined || command.merchantCountryProcessors;
      let terms: LinkTerms | undefined;
      if (changesTerms) {
        const country = await this.catalog.findCountryById(p.countryId);
        if (!country) throw new Error(`link ${linkId} names an unknown country`);
        const processorIds = command.merchantCountryProcessors;
        const amount = command.amount ?? link.amount;
        const vat = command.vatPercentage ?? basisPointsToVatPercentage(p.vatRateBp);
        terms = processorIds
          ? (await this.terms(tx, caller, country, amount, vat, processorIds, p.merchantId)).terms
          : await this.keptProcessors(country, amount, vat, p.countryProcessorIds);
      }
      link.update({ terms, description: command.description, reference: command.reference, expirationDate: command.expirationDate }, now);
      await this.links.save(tx, link);
      return link;
    });
    return (await this.views([link]))[0];
  }

  /** Operation 33: a link in any status; deleted, unknown and foreign links are 404. */
  async get(caller: Caller, linkId: LinkId): Promise<LinkView> {
    return (await this.views([await this.load(this.unitOfWork.outside, caller, linkId)]))[0];
  }

  /** Operation 32: 404 unknown or deleted, 409 used or expired, the link otherwise. */
  async validate(caller: Caller, linkId: LinkId): Promise<LinkView> {
    const link = await this.load(this.unitOfWork.outside, caller, linkId);
    link.assertActive(new Date());
    return (await this.views([link]))[0];
  }

  /** A live link for its public pay page, which acts for no caller (null: unknown or deleted). */
  async findForPayer(linkId: LinkId): Promise<LinkView | null> {
    const link = await this.links.findLive(this.unitOfWork.outside, linkId);
    return link ? (await this.views([link]))[0] : null;
  }

  /** Operation 29: newest first. */
  async list(caller: Caller, filter: { merchantId?: MerchantId; status?: LinkStatus }, page: PageRequest): Promise<Page<LinkView>> {
    const scope = await this.merchants.scopeOf(caller, filter.merchantId);
    const found = await this.links.list(this.unitOfWork.outside, scope, { status: filter.status, now: new Date() }, page);
    return { ...found, items: await this.views(found.items) };
  }

  /**
   * Operation 34: only an ACTIVE link (409 LINK_ALREADY_USED or LINK_EXPIRED
   * otherwise). The email is queued in the same transaction (the mail outbox);
   * the answer comes once it is queued.
   */
  async share(caller: Caller, linkId: LinkId, receiver: { receiverEmail: string; receiverName: string }): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const link = await this.load(tx, caller, linkId, true);
      link.assertActive(new Date());
      const merchantName = (await this.merchants.load(caller, link.snapshot().merchantId, tx)).snapshot().merchantName;
      await this.mail.enqueue(tx, linkShareEmail({ link, url: this.urlOf(link.id), merchantName, ...receiver }));
    });
  }

  /** Operation 35: a soft delete; a used link is a 400 ERROR_DELETING_LINK. */
  async delete(caller: Caller, linkId: LinkId): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const link = await this.load(tx, caller, linkId, true);
      link.delete(new Date());
      await this.links.save(tx, link);
      await this.announce(tx, link, 'link.deleted');
    });
  }

  /**
   * A link about to be paid (operation 24): read once, unlocked, with its
   * processors; ACTIVE now (409 LINK_ALREADY_USED or LINK_EXPIRED otherwise).
   * Its use is then written by `useOf`'s statement, with the payment intent.
   * With `lock`, taken for update in the transaction.
   */
  async forPayment(caller: Caller, linkId: LinkId, tx: Transaction = this.unitOfWork.outside, lock = false): Promise<LinkPayment> {
    const found = await this.links.findForPayment(tx, tenantScope(caller), linkId, lock);
    if (!found) throw new DomainError('LINK_NOT_FOUND');
    found.link.assertActive(new Date());
    return { ...found, offers: await this.catalog.findCountryProcessors(found.link.snapshot().countryProcessorIds) };
  }

  /**
   * The link used by a payment intent: the use, a change alongside the
   * intent's record (made only while the link is as read and still ACTIVE;
   * the intent is recorded only if it was), and the link.used event.
   */
  async useOf(payment: LinkPayment, paymentIntentId: PaymentIntentId, now: Date): Promise<{ change: ChangeAlongside; event: NewEvent }> {
    const { link } = payment;
    link.use(paymentIntentId, now);
    const [view] = await this.viewsOf([link], new Map([[link.id, payment.processors]]), now);
    const { businessId, merchantId, updatedAt } = link.snapshot();
    return {
      change: this.links.usedAlongside(link, payment.version),
      event: { type: 'link.used', businessId, merchantId, subjectId: link.id, object: linkRepresentation(view), at: updatedAt },
    };
  }

  /**
   * Why a use's statement found no row: the link is gone (404), used or
   * expired (409) — or, when this returns, it changed since it was read
   * and the payment may be tried again.
   */
  async refusalOfUse(caller: Caller, linkId: LinkId): Promise<void> {
    const link = await this.load(this.unitOfWork.outside, caller, linkId);
    link.assertActive(new Date());
  }

  /** The absolute address of a link's hosted pay page (contract §12: clients never build it). */
  urlOf(linkId: LinkId): string {
    return `${this.settings.publicBaseUrl}/pay/${linkId}`;
  }

  private async load(tx: Transaction, caller: Caller, linkId: LinkId, lock = false): Promise<Link> {
    const link = await this.links.findVisible(tx, tenantScope(caller), linkId, lock);
    if (!link) throw new DomainError('LINK_NOT_FOUND');
    return link;
  }

  private async country(iso3: string): Promise<Country> {
    const country = await this.catalog.findCountryByIso3(iso3);
    if (!country) throw new InvalidRequestError(['country'], `${iso3} is not a supported country`);
    return country;
  }

  /** The rules of §12 for what a link asks: merchant, processors, currency, VAT. */
  private async terms(
    tx: Transaction,
    caller: Caller,
    country: Country,
    amount: Money,
    vatPercentage: number,
    merchantCountryProcessorIds: readonly string[],
    merchantId: MerchantId | undefined,
  ): Promise<{ merchantId: MerchantId; terms: LinkTerms }> {
    const field = ['merchantCountryProcessors'];
    if (merchantCountryProcessorIds.length === 0)
      throw new InvalidRequestError(field, 'merchantCountryProcessors must name at least one processor');
    const views = await this.relationships.findVisible(caller, merchantCountryProcessorIds, tx);
    if (views.length !== new Set(merchantCountryProcessorIds).size)
      throw new InvalidRequestError(field, 'merchantCountryProcessors names a processor that is not yours');
    const owners = new Set(views.map((v) => v.relationship.merchantId));
    if (owners.size !== 1) throw new InvalidRequestError(field, 'merchantCountryProcessors must all belong to one merchant');
    const owner = views[0].relationship.merchantId;
    if (merchantId && merchantId !== owner)
      throw new InvalidRequestError(['merchantId'], 'merchantId is not the owner of merchantCountryProcessors');
    for (const { relationship: r, countryProcessor: cp } of views) {
      if (r.onboardingStatus !== 'ACTIVE' || !r.active || !cp.active)
        throw new InvalidRequestError(field, `merchantCountryProcessors: ${r.merchantCountryProcessorId} is not active`);
      if (cp.country.countryId !== country.countryId)
        throw new InvalidRequestError(field, `merchantCountryProcessors: ${r.merchantCountryProcessorId} is not in ${country.iso3}`);
      if (!cp.currencies.includes(amount.currency))
        throw new InvalidRequestError(field, `merchantCountryProcessors: ${r.merchantCountryProcessorId} does not take ${amount.currency}`);
    }
    (await this.merchants.load(caller, owner, tx)).assertCanCollect();
    return {
      merchantId: owner,
      terms: this.checkedTerms(
        country,
        amount,
        vatPercentage,
        views.map((v) => v.countryProcessor.countryProcessorId),
      ),
    };
  }

  private async keptProcessors(
    country: Country,
    amount: Money,
    vatPercentage: number,
    countryProcessorIds: readonly string[],
  ): Promise<LinkTerms> {
    const processors = await this.catalog.findCountryProcessors(countryProcessorIds);
    if (processors.some((p) => !p.currencies.includes(amount.currency))) {
      throw new InvalidRequestError(['amount'], `the link's processors do not take ${amount.currency}`);
    }
    return this.checkedTerms(country, amount, vatPercentage, countryProcessorIds);
  }

  private checkedTerms(country: Country, amount: Money, vatPercentage: number, countryProcessorIds: readonly string[]): LinkTerms {
    if (!country.currencies.includes(amount.currency))
      throw new DomainError('CURRENCY_NOT_ACCEPTED', undefined, { currency: amount.currency, country: country.iso3 });
    const vatRateBp = vatPercentageToBasisPoints(vatPercentage);
    if (vatRateBp === null || !country.vatRatesBp.includes(vatRateBp)) {
      throw new DomainError('VAT_RATE_NOT_ALLOWED', undefined, {
        vat: String(vatPercentage),
        country: country.iso3,
        allowed: country.vatRatesBp.map(basisPointsToVatPercentage).join(', '),
      });
    }
    return { amount, vatRateBp, countryId: country.countryId, countryProcessorIds };
  }

  /** Records a link's event with the change, in its transaction (contract §14). */
  private async announce(tx: Transaction, link: Link, type: 'link.created' | 'link.used' | 'link.deleted'): Promise<void> {
    const [view] = await this.views([link], tx);
    const { businessId, merchantId, updatedAt } = link.snapshot();
    await this.events.record(tx, {
      type,
      businessId,
      merchantId,
      subjectId: link.id,
      object: linkRepresentation(view),
      at: updatedAt,
    });
  }

  private async views(links: readonly Link[], tx: Transaction = this.unitOfWork.outside): Promise<LinkView[]> {
    const stored = await this.links.processorsOf(
      tx,
      links.map((l) => l.id),
    );
    return this.viewsOf(links, stored, new Date());
  }

  /** Links as shown, from their stored processors (the catalogue's country processors joined in memory). */
  private async viewsOf(links: readonly Link[], stored: ReadonlyMap<LinkId, StoredLinkProcessor[]>, now: Date): Promise<LinkView[]> {
    const catalog = new Map((await this.catalog.listCountryProcessors()).map((p) => [p.countryProcessorId, p]));
    return links.map((link) => ({
      link,
      status: link.statusAt(now),
      processors: (stored.get(link.id) ?? []).flatMap((p) => {
        const countryProcessor = catalog.get(p.countryProcessorId);
        return countryProcessor ? [{ ...p, countryProcessor }] : [];
      }),
      url: this.urlOf(link.id),
    }));
  }
}

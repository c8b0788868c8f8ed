import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import { GatewayRegistry, PayerIdentity } from '@pcs/gateways';
import { Caller, DomainError, UnitOfWork } from '@pcs/kernel';
import { LinkId, LinkService, LinkView } from '@pcs/links';
import { MerchantService } from '@pcs/merchants';
import { PayerStep, PaymentAttemptsService } from '../attempts/payment-attempts.service';
import { AvailableProcessorsService } from '../available-processors.service';
import { CardTestingGuard, PublicAttempt } from '../card-testing/card-testing.guard';
import { LinkPaymentIntentService } from '../creation/link-payment-intent.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';
import { InstallmentOfferShown, InstallmentQuotesService } from '../installments/installment-quotes.service';

/** What a link's pay page shows (contract §12). */
export type LinkPage =
  | { readonly kind: 'GONE' }
  | { readonly kind: 'EXPIRED'; readonly link: LinkView; readonly merchantName: string }
  | {
      readonly kind: 'CHOOSE';
      readonly link: LinkView;
      readonly merchantName: string;
      readonly methods: CountryProcessor[];
      readonly lastError: string | null;
      /** The installments the merchant offers with a credit card (contract §25), shown before the payer leaves. */
      readonly installments: InstallmentOfferShown | null;
    }
  | { readonly kind: 'AT_GATEWAY'; readonly link: LinkView; readonly merchantName: string; readonly gatewayUrl: string }
  | { readonly kind: 'PAYER'; readonly link: LinkView; readonly merchantName: string; readonly step: PayerStep }
  | { readonly kind: 'PROCESSING' | 'PAID' | 'CLOSED'; readonly link: LinkView; readonly merchantName: string };

/** A method chosen: to the gateway, or first the payer's details (shown again with what is wrong, `invalid`). */
export type LinkStart = { readonly gatewayUrl: string } | { readonly page: LinkPage; readonly invalid: boolean };

const OPEN_FOR_A_METHOD = new Set(['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION']);
const PAID = new Set(['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/**
 * A link's hosted pay page, for a payer who has no credentials: the page
 * acts for the link's merchant, on that link only. Choosing a method pays
 * from the link (operation 24), initializes at the gateway (operation 21)
 * with the page as the return address, and sends the payer there; a used
 * link whose intent is still open resumes that intent.
 */
@Injectable()
export class LinkCheckoutService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: LinkService,
    private readonly merchants: MerchantService,
    private readonly linkPayments: LinkPaymentIntentService,
    private readonly attempts: PaymentAttemptsService,
    private readonly available: AvailableProcessorsService,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly gateways: GatewayRegistry,
    private readonly installments: InstallmentQuotesService,
    private readonly cardTesting: CardTestingGuard,
  ) {}

  async page(linkId: LinkId): Promise<LinkPage> {
    const link = await this.links.findForPayer(linkId);
    if (!link) return { kind: 'GONE' };
    const merchantName = (await this.merchants.findById(link.link.snapshot().merchantId))?.merchantName ?? '';
    const intent = await this.intentOf(link);
    if (!intent) {
      if (link.status === 'EXPIRED') return { kind: 'EXPIRED', link, merchantName };
      const methods = link.processors.map((p) => p.countryProcessor).filter((p) => p.active);
      return {
        kind: 'CHOOSE',
        link,
        merchantName,
        methods,
        lastError: null,
        installments: await this.installments.offerShown(link.link.snapshot().merchantId, methods),
      };
    }
    const p = intent.snapshot();
    if (PAID.has(p.status)) return { kind: 'PAID', link, merchantName };
    if (p.status === 'PROCESSING') return { kind: 'PROCESSING', link, merchantName };
    if (p.status === 'REQUIRES_ACTION') {
      const checkout = await this.ledger.openCheckoutSession(this.unitOfWork.outside, intent.id, new Date());
      const c = checkout?.snapshot();
      if (c?.gateway && c.externalId)
        return { kind: 'AT_GATEWAY', link, merchantName, gatewayUrl: await this.gateways.get(c.gateway).checkoutUrl(c.externalId) };
    }
    if (OPEN_FOR_A_METHOD.has(p.status)) {
      const methods = await this.methodsFor(link, intent);
      const installments = await this.installments.offerShown(p.merchantId, methods);
      return { kind: 'CHOOSE', link, merchantName, methods, lastError: p.lastPaymentError, installments };
    }
    return { kind: 'CLOSED', link, merchantName };
  }

  /**
   * The payer chose a method: the gateway's page to send them to, or, for a
   * gateway that verifies payers (contract §20), first the form for the
   * payer's name, e-mail and document (`payer`: what they gave in it).
   */
  async start(linkId: LinkId, countryProcessorId: string, returnUrl: string, address: string, payer?: PayerIdentity): Promise<LinkStart> {
    const link = await this.links.findForPayer(linkId);
    if (!link) throw new DomainError('LINK_NOT_FOUND');
    // The card-testing guard (contract §30): refused (429) while this address or this link is blocked.
    const attempt: PublicAttempt = { page: 'LINK', merchantId: link.link.snapshot().merchantId, address, saleId: linkId };
    await this.cardTesting.refuseNewAttempt(attempt);
    const caller = this.callerFor(link);
    let intent = await this.intentOf(link);
    if (!intent) {
      const processor = link.processors.find((p) => p.countryProcessorId === countryProcessorId)?.countryProcessor;
      if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
      intent = await this.linkPayments.create(caller, link.link.id, {
        paymentInstrumentTypeName: processor.paymentInstrumentType.name,
        paymentMethodName: processor.paymentMethod.name,
      });
    }
    if (!(await this.methodsFor(link, intent)).some((p) => p.countryProcessorId === countryProcessorId))
      throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    const step = await this.attempts.payerStep(intent, countryProcessorId, payer);
    if (step) {
      const merchantName = (await this.merchants.findById(link.link.snapshot().merchantId))?.merchantName ?? '';
      return { page: { kind: 'PAYER', link, merchantName, step }, invalid: step.problems.length > 0 };
    }
    const { gatewayUrl } = await this.attempts.initialize(caller, intent.id, countryProcessorId, undefined, returnUrl, payer);
    await this.cardTesting.started(attempt, intent.id);
    return { gatewayUrl };
  }

  /** The link's merchant, acting on this link only. */
  private callerFor(link: LinkView): Caller {
    const l = link.link.snapshot();
    return { credentialId: `link:${l.linkId}`, businessId: l.businessId, merchantId: l.merchantId };
  }

  private async intentOf(link: LinkView): Promise<PaymentIntent | null> {
    const id = link.link.snapshot().paymentIntentId;
    return id ? this.intents.findById(this.unitOfWork.outside, id) : null;
  }

  /** The link's methods the intent can still be paid with (the method chosen first narrows it). */
  private async methodsFor(link: LinkView, intent: PaymentIntent): Promise<CountryProcessor[]> {
    const offered = new Set(link.processors.map((p) => p.countryProcessorId));
    return (await this.available.of(intent)).filter((p) => offered.has(p.countryProcessorId));
  }
}

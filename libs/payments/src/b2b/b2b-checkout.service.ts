import { Injectable } from '@nestjs/common';
import { CredentialService } from '@pcs/businesses';
import { RuntimeSettings } from '@pcs/config';
import { GatewayRegistry, PayerIdentity } from '@pcs/gateways';
import { Caller, DomainError, signedRedirectUrl, UnitOfWork } from '@pcs/kernel';
import { setTimeout as sleep } from 'node:timers/promises';
import { PayerStep, PaymentAttemptsService } from '../attempts/payment-attempts.service';
import { B2bCheckout, checkoutIsPastDue } from '../domain/b2b-checkout';
import { b2bStatusCode, CHECKOUT_EXPIRED_REASON } from '../domain/b2b-status';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { B2bCheckoutRepository } from './b2b-checkout.repository';
import { B2bPaymentIntentsService, B2bPaymentIntentView } from './b2b-payment-intents.service';
import { CheckoutExpiryService } from './checkout-expiry.service';
import { CardTestingGuard, PublicAttempt } from '../card-testing/card-testing.guard';
import { PayinRepository } from '../ledger/payin.repository';
import { InstallmentOfferShown, InstallmentQuotesService } from '../installments/installment-quotes.service';

/** What the hosted checkout shows (contract §13). */
export type CheckoutPage =
  | { readonly kind: 'GONE' }
  | {
      readonly kind: 'CHOOSE';
      readonly view: B2bPaymentIntentView;
      readonly lastError: string | null;
      /** The installments the merchant offers with a credit card (contract §25), shown before the payer leaves. */
      readonly installments: InstallmentOfferShown | null;
    }
  | { readonly kind: 'AT_GATEWAY'; readonly view: B2bPaymentIntentView; readonly gatewayUrl: string }
  | { readonly kind: 'PAYER'; readonly view: B2bPaymentIntentView; readonly step: PayerStep }
  | { readonly kind: 'PROCESSING' | 'PAID' | 'CLOSED' | 'EXPIRED'; readonly view: B2bPaymentIntentView };

/** A method chosen: to the gateway, or first the payer's details (shown again with what is wrong, `invalid`). */
export type CheckoutStart = { readonly gatewayUrl: string } | { readonly page: CheckoutPage; readonly invalid: boolean };

/** After the gateway: back to the merchant, or (a rejected attempt) the checkout again to try another method. */
export type CheckoutReturn = { readonly redirect: string } | { readonly page: CheckoutPage };

const PAID = new Set(['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
/** How long the return from the gateway waits for the gateway's callback (contract §13). */
export const OUTCOME_WAIT_MS = 10_000;

/**
 * The hosted checkout of a B2B payment intent, for a payer who has no
 * credentials: it acts for the intent's merchant, on that intent only. The
 * payer picks a method (operation 21 with the checkout as return address),
 * pays at the gateway, comes back, and once the outcome is known is sent to
 * the merchant's redirectUrl with the signed parameters of §13.
 */
@Injectable()
export class B2bCheckoutService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly checkouts: B2bCheckoutRepository,
    private readonly intents: PaymentIntentRepository,
    private readonly b2b: B2bPaymentIntentsService,
    private readonly attempts: PaymentAttemptsService,
    private readonly expiry: CheckoutExpiryService,
    private readonly ledger: PayinRepository,
    private readonly gateways: GatewayRegistry,
    private readonly credentials: CredentialService,
    private readonly settings: RuntimeSettings,
    private readonly installments: InstallmentQuotesService,
    private readonly cardTesting: CardTestingGuard,
  ) {}

  async page(reference: string): Promise<CheckoutPage> {
    const found = await this.load(reference);
    if (!found) return { kind: 'GONE' };
    const { checkout, intent } = found;
    const view = await this.b2b.viewOf(intent, checkout);
    const p = intent.snapshot();
    if (PAID.has(p.status)) return { kind: 'PAID', view };
    if (p.status === 'PROCESSING') return { kind: 'PROCESSING', view };
    if (p.status === 'CANCELED') return { kind: p.cancellationReason === CHECKOUT_EXPIRED_REASON ? 'EXPIRED' : 'CLOSED', view };
    if (p.status === 'REQUIRES_ACTION') {
      const open = await this.ledger.openCheckoutSession(this.unitOfWork.outside, intent.id, new Date());
      const c = open?.snapshot();
      if (c?.gateway && c.externalId)
        return { kind: 'AT_GATEWAY', view, gatewayUrl: await this.gateways.get(c.gateway).checkoutUrl(c.externalId) };
    }
    return {
      kind: 'CHOOSE',
      view,
      lastError: p.lastPaymentError,
      installments: await this.installments.offerShown(p.merchantId, view.available),
    };
  }

  /**
   * The payer chose a method: the gateway's page to send them to, or, for a
   * gateway that verifies payers (contract §20), first the form for the
   * payer's name, e-mail and document (`payer`: what they gave in it).
   */
  async start(reference: string, countryProcessorId: string, address: string, payer?: PayerIdentity): Promise<CheckoutStart> {
    const found = await this.load(reference);
    if (!found) throw new DomainError('PAYMENT_INTENT_NOT_FOUND');
    const { checkout, intent } = found;
    // The card-testing guard (contract §30): refused (429) while this address or this checkout (its intent, one sale) is blocked.
    const attempt: PublicAttempt = { page: 'CHECKOUT', merchantId: intent.snapshot().merchantId, address, saleId: intent.id };
    await this.cardTesting.refuseNewAttempt(attempt);
    const step = await this.attempts.payerStep(intent, countryProcessorId, payer);
    if (step) return { page: { kind: 'PAYER', view: await this.b2b.viewOf(intent, checkout), step }, invalid: step.problems.length > 0 };
    const caller = this.callerFor(intent, checkout);
    const returnUrl = `${this.settings.publicBaseUrl}/checkout/${checkout.reference}/return`;
    const { gatewayUrl } = await this.attempts.initialize(caller, intent.id, countryProcessorId, undefined, returnUrl, payer);
    await this.cardTesting.started(attempt, intent.id);
    return { gatewayUrl };
  }

  /**
   * The payer is back from the gateway. Waits (at most OUTCOME_WAIT_MS) for
   * the attempt's outcome; approved, pending or anything final returns to
   * the merchant; a rejection shows the checkout again with the other methods.
   */
  async afterGateway(reference: string, waitMs = OUTCOME_WAIT_MS): Promise<CheckoutReturn | null> {
    const until = Date.now() + waitMs;
    let found = await this.load(reference);
    while (found && found.intent.status === 'REQUIRES_ACTION' && Date.now() < until) {
      await sleep(200);
      found = await this.load(reference);
    }
    if (!found) return null;
    if (b2bStatusCode(found.intent.snapshot()) === 'REJECTED') return { page: await this.page(reference) };
    return { redirect: await this.redirectFor(found.checkout, found.intent) };
  }

  /** "Return to the merchant": the signed redirect with the status as it is now. */
  async returnToMerchant(reference: string): Promise<string | null> {
    const found = await this.load(reference);
    return found ? this.redirectFor(found.checkout, found.intent) : null;
  }

  private async redirectFor(checkout: B2bCheckout, intent: PaymentIntent): Promise<string> {
    const secret = await this.credentials.secretOf(checkout.credentialId);
    if (!secret) throw new Error(`the credentials of checkout ${checkout.reference} are gone`);
    const p = intent.snapshot();
    return signedRedirectUrl(
      checkout.redirectUrl,
      {
        paymentIntentId: p.paymentIntentId,
        externalReference: p.externalReference ?? '',
        status: b2bStatusCode(p),
        timestamp: String(Math.floor(Date.now() / 1000)),
      },
      secret,
    );
  }

  /** The checkout and its intent, expired first if its time is up. */
  private async load(reference: string): Promise<{ checkout: B2bCheckout; intent: PaymentIntent } | null> {
    if (!/^chk_[\w-]{24}$/.test(reference)) return null;
    const checkout = await this.checkouts.findByReference(this.unitOfWork.outside, reference);
    if (!checkout) return null;
    if (checkoutIsPastDue(checkout, new Date())) await this.expiry.expireIfDue(checkout.paymentIntentId);
    const intent = await this.intents.findById(this.unitOfWork.outside, checkout.paymentIntentId);
    return intent ? { checkout, intent } : null;
  }

  /** The intent's merchant, acting on this checkout only. */
  private callerFor(intent: PaymentIntent, checkout: B2bCheckout): Caller {
    const p = intent.snapshot();
    return { credentialId: `checkout:${checkout.reference}`, businessId: p.businessId, merchantId: p.merchantId };
  }
}

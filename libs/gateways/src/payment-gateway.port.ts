import { Currency } from '@pcs/kernel';

export interface CheckoutRequest {
  readonly payinId: string;
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: Currency;
  readonly amount: number;
  readonly expiresAt: Date;
}

export interface CheckoutSession {
  readonly reference: string;
  readonly url: string;
}

export interface ChargeRequest {
  readonly payinId: string;
  readonly instrumentToken: string | null;
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: Currency;
  readonly amount: number;
}

export interface CardDetails {
  readonly maskedPan?: string;
  readonly cardType?: string;
}

export interface ChargeOutcome extends CardDetails {
  readonly status: 'APPROVED' | 'PENDING' | 'REJECTED';
  readonly reference: string;
  readonly error?: string;
  readonly instrumentToken?: string;
}

export interface RefundRequest {
  readonly refundId: string;
  readonly chargeReference: string | null;
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: Currency;
  readonly amount: number;
}

export interface RefundOutcome {
  readonly status: 'APPROVED' | 'REJECTED';
  readonly reference: string;
  readonly error?: string;
}

/** What a gateway tells us about a session, verified. */
export interface GatewayEvent extends CardDetails {
  readonly gateway: string;
  readonly eventId: string;
  readonly reference: string;
  readonly outcome: 'PENDING' | 'APPROVED' | 'REJECTED';
  readonly error?: string;
}

/**
 * The one port through which the service talks to a gateway (contract §10).
 * Amounts are integer minor units; each adapter converts to its gateway's
 * format at its own edge.
 */
export abstract class PaymentGateway {
  abstract readonly name: string;
  /** A page where the payer completes the payment. */
  abstract openCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Closes a checkout the service no longer wants (another method chosen, or expired). */
  abstract closeCheckout(reference: string, reason: 'CANCELLED' | 'EXPIRED'): Promise<void>;
  abstract chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome>;
  abstract refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Verifies a callback's authenticity and reads it; throws GATEWAY_CALLBACK_REJECTED otherwise. */
  abstract verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): GatewayEvent;
}

/** Finds the adapter of a country processor's gateway. */
export abstract class GatewayRegistry {
  abstract get(name: string): PaymentGateway;
}

import { DomainError } from '@pcs/kernel';
import { CardNotSavedError, ProcessorUnavailableError } from '@pcs/gateways';
import { MercadoPagoRequestError } from './mercado-pago.client';
import { MERCADO_PAGO } from './mercado-pago-account';

/** What the adapter was doing when Mercado Pago failed: each flow reads a failure its own way. */
export type MercadoPagoFlow = 'checkout' | 'quote' | 'refund' | 'evidence' | 'charge' | 'save-card';

/** A refusal that ends the flow with an answer rather than an error (a refund Mercado Pago refused: final, the amount released). */
export interface MercadoPagoRefusal {
  readonly refused: string;
}

/**
 * Where Mercado Pago's failures become ours: the one translation of the adapter. A failure with no
 * answer, a 429 or a 5xx is an unknown outcome (it may have been done); a 4xx is a refusal (nothing was).
 * Anything else (a bug, a failure of our own database) passes through unchanged.
 */
export function mercadoPagoFailure(flow: 'refund' | 'charge', error: unknown): Error | MercadoPagoRefusal;
export function mercadoPagoFailure(flow: Exclude<MercadoPagoFlow, 'refund' | 'charge'>, error: unknown): Error;
export function mercadoPagoFailure(flow: MercadoPagoFlow, error: unknown): Error | MercadoPagoRefusal {
  if (!(error instanceof MercadoPagoRequestError)) return error instanceof Error ? error : new Error(String(error));
  const unknown = error.unknownOutcome;
  switch (flow) {
    case 'checkout':
      // A preference charges nothing: unreachable, another processor may be tried (contract §26); refused, nothing was
      // recorded and the request may be retried (its Idempotency-Key gets the same preference).
      return unknown ? new ProcessorUnavailableError(MERCADO_PAGO, error.message) : new DomainError('GATEWAY_UNREACHABLE', error.message);
    case 'quote':
      return unknown
        ? new DomainError('GATEWAY_UNREACHABLE', error.message)
        : new DomainError('INSTALLMENTS_NOT_QUOTED', error.message, { provider: 'Mercado Pago', reason: `it answered ${error.status}` });
    case 'evidence':
      // Refused (a deadline passed, a file it will not take): the dispute waits; an unknown outcome is retried by the merchant.
      return unknown
        ? error
        : new DomainError('DISPUTE_EVIDENCE_REFUSED', error.message, { provider: 'Mercado Pago', status: error.status ?? 0 });
    case 'refund':
      // A refusal is final and releases the amount; no answer or a 5xx is settled by reconciliation.
      return unknown ? error : ({ refused: error.message } satisfies MercadoPagoRefusal);
    case 'charge':
      // A saved card's charge refused before a payment was made (its token, the request): a rejected attempt; no answer
      // or a 5xx may have charged, and is settled by a lookup (the payment is searched by our reference).
      return unknown ? error : ({ refused: error.message } satisfies MercadoPagoRefusal);
    case 'save-card':
      // Unreachable: the payer may try again; refused (a token used or expired, a card it will not keep): told so.
      return unknown ? new DomainError('GATEWAY_UNREACHABLE', error.message) : new CardNotSavedError(error.message);
  }
}

export function isRefusal(translated: Error | MercadoPagoRefusal): translated is MercadoPagoRefusal {
  return !(translated instanceof Error);
}

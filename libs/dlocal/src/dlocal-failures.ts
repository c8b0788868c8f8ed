import { DomainError } from '@pcs/kernel';
import { CardNotSavedError, CheckoutOutcomeUnknownError, PixNotAuthorisedError, ProcessorUnavailableError } from '@pcs/gateways';
import { DLocalRequestError } from './dlocal.client';
import { DLOCAL } from './dlocal-account';

/** What the adapter was doing when dLocal failed: each flow reads a failure its own way. */
export type DLocalFlow = 'checkout' | 'quote' | 'refund' | 'charge' | 'save-card' | 'enrollment';

/** A failure that ends the flow with an answer, not an error. */
export type DLocalAnswer =
  /** A refund dLocal refused: final, the amount released. */
  | { readonly refused: string }
  /** A payment whose order id dLocal already holds (5009): a request whose answer was lost, looked up by that id. */
  | { readonly orderTaken: string };

/**
 * Where dLocal's failures become ours: the one translation of the adapter. No answer, a 429 or a 5xx
 * is an unknown outcome (it may have been done); a 4xx a refusal (nothing was); a connection refused
 * before the request left, never seen. Anything else passes through unchanged.
 */
export function dlocalFailure(flow: 'quote', error: unknown): Error;
export function dlocalFailure(flow: 'checkout', error: unknown): Error | { readonly orderTaken: string };
export function dlocalFailure(flow: 'refund', error: unknown): Error | { readonly refused: string };
export function dlocalFailure(flow: 'charge', error: unknown): Error | DLocalAnswer;
export function dlocalFailure(flow: 'save-card', error: unknown): Error;
export function dlocalFailure(flow: 'enrollment', error: unknown): Error;
export function dlocalFailure(flow: DLocalFlow, error: unknown): Error | DLocalAnswer {
  if (!(error instanceof DLocalRequestError)) return error instanceof Error ? error : new Error(String(error));
  switch (flow) {
    case 'checkout':
      // Our order id was taken already: a request whose answer was lost.
      if (error.code === 5009) return { orderTaken: error.message };
      // Unreachable with nothing a payer could pay (contract §26): refused before it left, or dLocal's 429 or 5xx (no
      // redirect_url was given, so a payment it may have made is one nobody reaches); another processor may be tried.
      if (!error.sent || (error.status !== null && error.unknownOutcome)) return new ProcessorUnavailableError(DLOCAL, error.message);
      // No answer once sent (a timeout, an answer cut off): it may have been made; asked about by our order id.
      if (error.unknownOutcome) return new CheckoutOutcomeUnknownError(DLOCAL, null, error.message);
      // A refusal: nothing was created at dLocal.
      return new DomainError('GATEWAY_UNREACHABLE', error.message);
    case 'quote':
      return error.unknownOutcome
        ? new DomainError('GATEWAY_UNREACHABLE', error.message)
        : new DomainError('INSTALLMENTS_NOT_QUOTED', error.message, { provider: 'dLocal', reason: `it answered ${error.status}` });
    case 'refund':
      // A refusal is final and releases the amount; no answer or a 5xx is settled by reconciliation.
      return error.unknownOutcome ? error : { refused: error.message };
    case 'charge':
      // A saved card's charge (contract §31): our order id taken, a retry of a charge whose answer was lost (read by it);
      // refused, a rejected attempt; no answer, settled by the lookup of our order id.
      if (error.code === 5009) return { orderTaken: error.message };
      return error.unknownOutcome ? error : { refused: error.message };
    case 'save-card':
      // Unreachable: the payer may try again; refused (a token used or expired, a card it will not keep): told so.
      return error.unknownOutcome ? new DomainError('GATEWAY_UNREACHABLE', error.message) : new CardNotSavedError(error.message);
    case 'enrollment':
      // A Pix Automático enrollment (contract §31): unreachable, the payer may try again (an enrollment dLocal may have made
      // waits unused: nobody reaches its journey); refused (the payer's identity, the terms): told so.
      return error.unknownOutcome ? new DomainError('GATEWAY_UNREACHABLE', error.message) : new PixNotAuthorisedError(error.message);
  }
}

export function isAnswer<T extends DLocalAnswer>(translated: Error | T): translated is T {
  return !(translated instanceof Error);
}

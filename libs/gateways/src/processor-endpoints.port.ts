import type { GatewayNotice } from './payment-gateway.port';

/** A request to a processor's public routes, as it arrived: nothing in it is trusted before its processor verified it. */
export interface ProcessorRequest {
  readonly query: Record<string, unknown>;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as parsed (JSON or a form), for a processor that posts fields. */
  readonly body: Record<string, unknown> | undefined;
  /** The bytes as received, for a processor that signs them. */
  readonly rawBody: Buffer;
}

/**
 * Where a payer coming back from a processor's page goes: UNKNOWN, no attempt of ours (a 404 page); REFUSED, a
 * return the processor did not sign (a 400 page); BACK, on to the page that opened the attempt, or the processing
 * page when none did, with what the service read from the processor itself on the way, applied like a notification.
 */
export type PayerReturn =
  | { readonly kind: 'UNKNOWN' }
  | { readonly kind: 'REFUSED' }
  | {
      readonly kind: 'BACK';
      readonly returnUrl: string | null;
      readonly learned?: { readonly merchantId: string; readonly notice: GatewayNotice };
    };

/**
 * A processor's public routes (`/gateways/<path>/notifications/:merchantId`, `/gateways/<path>/return/:payinId`),
 * read by its own library and served by one entry that dispatches by path: a processor brings its reading of
 * notifications and returns, never a controller. Registered with the gateway registry when its module starts.
 */
export interface ProcessorEndpoints {
  /** The routes' path segment (`mercado-pago`, `dlocal`). */
  readonly path: string;
  /** The gateway whose notices these are (the registry's name). */
  readonly gateway: string;
  /** How payers know it, on the processing page. */
  readonly displayName: string;
  /** A notification, verified as the processor signs it, read into our terms (GATEWAY_CALLBACK_REJECTED when it does not verify). */
  readNotification(merchantId: string, request: ProcessorRequest): Promise<GatewayNotice>;
  /** The payer's browser back at the return address (a GET: a reload reads and decides nothing). */
  payerReturned(payinId: string): Promise<PayerReturn>;
  /** The payer's browser posted back with a signed status, for a processor that does so; without it a POST is 404. */
  payerPostedBack?(payinId: string, request: ProcessorRequest): Promise<PayerReturn>;
}

import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pcs:public';

/** `limited: false`: never rate-limited (only /health and /metrics, contract §17). */
export type PublicOptions = { readonly limited: boolean };

/**
 * Opts a route out of request signing. Every route is signed by default;
 * only health, metrics, the payer's pages and the gateways' callbacks are
 * public. A public route is limited per client address (contract §17) unless
 * it says `{ limited: false }`.
 */
export const Public = (options: PublicOptions = { limited: true }) => SetMetadata(IS_PUBLIC, options);

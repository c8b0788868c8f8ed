import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pcs:public';

/**
 * Opts a route out of request signing. Every route is signed by default;
 * only health and the sandbox gateway's payer-facing pages are public.
 */
export const Public = () => SetMetadata(IS_PUBLIC, true);

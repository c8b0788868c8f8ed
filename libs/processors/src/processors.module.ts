import { Global, Module } from '@nestjs/common';
import { DLOCAL_ACCOUNT_ROUTE, DLOCAL_RECONCILIATION, DLocalModule } from '@pcs/dlocal';
import type { ProviderAccountSpec } from '@pcs/gateway-accounts';
import { GatewaysModule, ReconciledProcessor } from '@pcs/gateways';
import { MERCADO_PAGO_ACCOUNT_ROUTE, MERCADO_PAGO_RECONCILIATION, MercadoPagoModule } from '@pcs/mercado-pago';

/**
 * The processors this deployment collects through, each behind the gateway port: a processor's
 * registration is its module here (which registers its adapter, its account kind, its routes'
 * reading and its reports when it starts) and its account's route (the payins API serves one per
 * processor listed). Imported once by each app; global, so every module that asks the gateway
 * registry finds them.
 */
@Global()
@Module({
  imports: [GatewaysModule, MercadoPagoModule, DLocalModule],
  exports: [GatewaysModule, MercadoPagoModule, DLocalModule],
})
export class ProcessorsModule {}

/** Each processor's account routes (`/merchant/:merchantId/gateway-account/<path>`), in the order the API documents them. */
export const PROCESSOR_ACCOUNT_ROUTES: readonly ProviderAccountSpec[] = [MERCADO_PAGO_ACCOUNT_ROUTE, DLOCAL_ACCOUNT_ROUTE];

/** The processors a reconciliation run reads (their reports or lookups), the first the operators' command's default. */
export const RECONCILED_PROCESSORS: readonly ReconciledProcessor[] = [MERCADO_PAGO_RECONCILIATION, DLOCAL_RECONCILIATION];

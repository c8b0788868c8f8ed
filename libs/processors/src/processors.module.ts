import { Global, Module } from '@nestjs/common';
import { DLocalModule } from '@pcs/dlocal';
import { GatewaysModule } from '@pcs/gateways';
import { MercadoPagoModule } from '@pcs/mercado-pago';

/**
 * The processors this deployment collects through, each behind the gateway
 * port: importing a processor's module here is its one registration (it
 * registers its adapter, its account kind and its reports when it starts).
 * Imported once by each app; global, so every module that asks the gateway
 * registry finds them.
 */
@Global()
@Module({
  imports: [GatewaysModule, MercadoPagoModule, DLocalModule],
  exports: [GatewaysModule, MercadoPagoModule, DLocalModule],
})
export class ProcessorsModule {}

import { Module, OnModuleInit } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayRegistry, GatewaysModule } from '@pcs/gateways';
import { MERCADO_PAGO_ACCOUNT } from './mercado-pago-account';
import { MercadoPagoGateway } from './mercado-pago.gateway';
import { MercadoPagoNotifications } from './mercado-pago-notifications';
import { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';
import { MercadoPagoReleaseReports } from './mercado-pago-release-reports';
import { MercadoPagoEndpoints } from './mercado-pago-endpoints';

/** Mercado Pago behind the gateway port (contracts §16, §19): the adapter, its account kind, its routes' reading and its release reports. */
@Module({
  imports: [GatewaysModule],
  providers: [MercadoPagoGateway, MercadoPagoRecords, MercadoPagoNotifications, MercadoPagoReleaseReports, MercadoPagoEndpoints],
})
export class MercadoPagoModule implements OnModuleInit {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly accounts: GatewayAccounts,
    private readonly gateway: MercadoPagoGateway,
    private readonly reports: MercadoPagoReleaseReports,
    private readonly routes: MercadoPagoEndpoints,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.gateway);
    this.registry.registerReports(this.reports);
    this.registry.registerEndpoints(this.routes);
    this.accounts.registerKind(MERCADO_PAGO_ACCOUNT);
  }
}

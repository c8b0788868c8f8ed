import { Module, OnModuleInit } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayRegistry, GatewaysModule } from '@pcs/gateways';
import { DLOCAL_ACCOUNT } from './dlocal-account';
import { DLocalGateway } from './dlocal.gateway';
import { DLocalNotifications } from './dlocal-notifications';
import { DLocalRecords } from './persistence/dlocal-records.repository';

/** dLocal behind the gateway port (contract §20): the adapter, its account kind and its notifications. */
@Module({
  imports: [GatewaysModule],
  providers: [DLocalGateway, DLocalRecords, DLocalNotifications],
  exports: [DLocalNotifications],
})
export class DLocalModule implements OnModuleInit {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly accounts: GatewayAccounts,
    private readonly gateway: DLocalGateway,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.gateway);
    this.accounts.registerKind(DLOCAL_ACCOUNT);
  }
}

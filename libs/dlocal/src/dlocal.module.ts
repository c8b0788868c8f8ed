import { Module, OnModuleInit } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayRegistry, GatewaysModule } from '@pcs/gateways';
import { DLOCAL_ACCOUNT } from './dlocal-account';
import { DLocalGateway } from './dlocal.gateway';
import { DLocalNotifications } from './dlocal-notifications';
import { DLocalLookups } from './dlocal-lookups';
import { DLocalRecords } from './persistence/dlocal-records.repository';
import { DLocalEndpoints } from './dlocal-endpoints';

/** dLocal behind the gateway port (contract §20): the adapter, its account kind, its routes' reading and its daily lookups (§28). */
@Module({
  imports: [GatewaysModule],
  providers: [DLocalGateway, DLocalRecords, DLocalNotifications, DLocalLookups, DLocalEndpoints],
})
export class DLocalModule implements OnModuleInit {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly accounts: GatewayAccounts,
    private readonly gateway: DLocalGateway,
    private readonly lookups: DLocalLookups,
    private readonly routes: DLocalEndpoints,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.gateway);
    this.registry.registerLookups(this.lookups);
    this.registry.registerEndpoints(this.routes);
    this.accounts.registerKind(DLOCAL_ACCOUNT);
  }
}

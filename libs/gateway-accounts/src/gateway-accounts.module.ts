import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusinessesModule } from '@pcs/businesses';
import { MerchantsModule } from '@pcs/merchants';
import { GatewayAccounts } from './gateway-accounts.service';
import { GatewayAccountOrmEntity } from './persistence/gateway-account.orm-entity';
import { GatewayAccountRepository } from './persistence/gateway-account.repository';

/** Merchants' accounts at outside processors, and the routing of their payment methods (contracts §16, §20). */
@Module({
  imports: [TypeOrmModule.forFeature([GatewayAccountOrmEntity]), BusinessesModule, MerchantsModule],
  providers: [GatewayAccountRepository, GatewayAccounts],
  exports: [GatewayAccounts],
})
export class GatewayAccountsModule {}

import { Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusinessesModule } from '@pcs/businesses';
import { MerchantsModule } from '@pcs/merchants';
import { DomainError } from '@pcs/kernel';
import { GatewayRegistry, PaymentGateway } from './payment-gateway.port';
import { SandboxCallbacks, SandboxCallbackTarget, SelfCallbackTarget } from './sandbox/sandbox-callbacks';
import { SandboxDesk } from './sandbox/sandbox-desk';
import { SandboxGateway } from './sandbox/sandbox.gateway';
import { SandboxSessionOrmEntity } from './sandbox/sandbox-session.orm-entity';
import { GatewayAccountOrmEntity } from './mercado-pago/persistence/gateway-account.orm-entity';
import { GatewayAccountRepository } from './mercado-pago/persistence/gateway-account.repository';
import { MercadoPagoAccounts } from './mercado-pago/mercado-pago-accounts.service';
import { MercadoPagoGateway } from './mercado-pago/mercado-pago.gateway';
import { MercadoPagoRecords } from './mercado-pago/persistence/mercado-pago-records.repository';
import { MercadoPagoReleaseReports } from './mercado-pago/mercado-pago-release-reports';

/** The processors' reports (ProcessorReports[]), by this token. */
export const PROCESSOR_REPORTS = Symbol('PROCESSOR_REPORTS');

@Injectable()
class InProcessGatewayRegistry extends GatewayRegistry {
  private readonly gateways: Map<string, PaymentGateway>;

  constructor(sandbox: SandboxGateway, mercadoPago: MercadoPagoGateway) {
    super();
    this.gateways = new Map<string, PaymentGateway>([
      [sandbox.name, sandbox],
      [mercadoPago.name, mercadoPago],
    ]);
  }

  get(name: string): PaymentGateway {
    const gateway = this.gateways.get(name);
    if (!gateway) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE', `no adapter for gateway ${name}`);
    return gateway;
  }
}

/** Gateways behind the port: the sandbox (which calls back the server it runs in) and Mercado Pago, each merchant with its own account. */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxSessionOrmEntity, GatewayAccountOrmEntity]), BusinessesModule, MerchantsModule],
  providers: [
    SandboxGateway,
    SandboxCallbacks,
    SandboxDesk,
    MercadoPagoAccounts,
    GatewayAccountRepository,
    MercadoPagoGateway,
    MercadoPagoRecords,
    { provide: SandboxCallbackTarget, useClass: SelfCallbackTarget },
    { provide: GatewayRegistry, useClass: InProcessGatewayRegistry },
    MercadoPagoReleaseReports,
    // Every processor that publishes reports (Mercado Pago today), for the reconciliation runs.
    {
      provide: PROCESSOR_REPORTS,
      useFactory: (mercadoPago: MercadoPagoReleaseReports) => [mercadoPago],
      inject: [MercadoPagoReleaseReports],
    },
  ],
  exports: [GatewayRegistry, SandboxDesk, MercadoPagoAccounts, MercadoPagoGateway, MercadoPagoRecords, PROCESSOR_REPORTS],
})
export class GatewaysModule {}

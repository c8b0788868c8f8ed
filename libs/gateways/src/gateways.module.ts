import { Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainError } from '@pcs/kernel';
import { GatewayRegistry, PaymentGateway } from './payment-gateway.port';
import { SandboxCallbacks, SandboxCallbackTarget, SelfCallbackTarget } from './sandbox/sandbox-callbacks';
import { SandboxDesk } from './sandbox/sandbox-desk';
import { SandboxGateway } from './sandbox/sandbox.gateway';
import { SandboxSessionOrmEntity } from './sandbox/sandbox-session.orm-entity';

@Injectable()
class InProcessGatewayRegistry extends GatewayRegistry {
  private readonly gateways: Map<string, PaymentGateway>;

  constructor(sandbox: SandboxGateway) {
    super();
    this.gateways = new Map([[sandbox.name, sandbox]]);
  }

  get(name: string): PaymentGateway {
    const gateway = this.gateways.get(name);
    if (!gateway) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE', `no adapter for gateway ${name}`);
    return gateway;
  }
}

/** Gateways behind the port; today the sandbox, which calls back the server it runs in. */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxSessionOrmEntity])],
  providers: [
    SandboxGateway,
    SandboxCallbacks,
    SandboxDesk,
    { provide: SandboxCallbackTarget, useClass: SelfCallbackTarget },
    { provide: GatewayRegistry, useClass: InProcessGatewayRegistry },
  ],
  exports: [GatewayRegistry, SandboxDesk],
})
export class GatewaysModule {}

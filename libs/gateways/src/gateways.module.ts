import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { GatewayAccountsModule } from '@pcs/gateway-accounts';
import { MerchantsModule } from '@pcs/merchants';
import { GatewayRegistry } from './gateway-registry';
import { GatewayRouting } from './gateway-routing';
import { TypeOrmProcessorHealthRecords } from './persistence/typeorm-processor-health.records';
import { ProcessorCircuits } from './routing/processor-circuits';
import { ProcessorHealthRecords } from './routing/processor-health.records';
import { ProcessorHealthService } from './routing/processor-health.service';
import { ProcessorRoutes } from './routing/processor-routes';
import { SandboxCallbacks, SandboxCallbackTarget, SelfCallbackTarget } from './sandbox/sandbox-callbacks';
import { SandboxDesk } from './sandbox/sandbox-desk';
import { SandboxGateway } from './sandbox/sandbox.gateway';
import { SandboxSessionOrmEntity } from './sandbox/sandbox-session.orm-entity';

/**
 * The gateway seam: the port, the registry of adapters, the routing of each
 * merchant's methods and attempts across processors with their circuits and
 * health (contract §26), and the sandbox (the catalog's default gateway, which
 * calls back the server it runs in). Processors' adapters live in modules of
 * their own that register with the registry (ProcessorsModule lists them).
 */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxSessionOrmEntity]), GatewayAccountsModule, MerchantsModule, EventsModule],
  providers: [
    GatewayRegistry,
    GatewayRouting,
    SandboxGateway,
    SandboxCallbacks,
    SandboxDesk,
    { provide: SandboxCallbackTarget, useClass: SelfCallbackTarget },
    ProcessorRoutes,
    ProcessorCircuits,
    ProcessorHealthService,
    { provide: ProcessorHealthRecords, useClass: TypeOrmProcessorHealthRecords },
  ],
  exports: [
    GatewayRegistry,
    GatewayRouting,
    SandboxDesk,
    GatewayAccountsModule,
    ProcessorRoutes,
    ProcessorCircuits,
    ProcessorHealthService,
  ],
})
export class GatewaysModule implements OnModuleInit {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly sandbox: SandboxGateway,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.sandbox);
  }
}

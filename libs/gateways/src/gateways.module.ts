import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GatewayAccountsModule } from '@pcs/gateway-accounts';
import { GatewayRegistry } from './gateway-registry';
import { GatewayRouting } from './gateway-routing';
import { SandboxCallbacks, SandboxCallbackTarget, SelfCallbackTarget } from './sandbox/sandbox-callbacks';
import { SandboxDesk } from './sandbox/sandbox-desk';
import { SandboxGateway } from './sandbox/sandbox.gateway';
import { SandboxSessionOrmEntity } from './sandbox/sandbox-session.orm-entity';

/**
 * The gateway seam: the port, the registry of adapters, the routing of each
 * merchant's methods, and the sandbox (the catalog's default gateway, which
 * calls back the server it runs in). Processors' adapters live in modules of
 * their own that register with the registry (ProcessorsModule lists them).
 */
@Module({
  imports: [TypeOrmModule.forFeature([SandboxSessionOrmEntity]), GatewayAccountsModule],
  providers: [
    GatewayRegistry,
    GatewayRouting,
    SandboxGateway,
    SandboxCallbacks,
    SandboxDesk,
    { provide: SandboxCallbackTarget, useClass: SelfCallbackTarget },
  ],
  exports: [GatewayRegistry, GatewayRouting, SandboxDesk, GatewayAccountsModule],
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

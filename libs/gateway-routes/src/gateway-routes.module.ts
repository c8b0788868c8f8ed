import { Module } from '@nestjs/common';
import { DisputesModule } from '@pcs/disputes';
import { PaymentsModule } from '@pcs/payments';
import { ProcessorReportsModule } from '@pcs/processor-reports';
import { ProcessorsModule } from '@pcs/processors';
import { GatewayCallbackController } from './gateway-callback.controller';
import { ProcessorEndpointsController } from './processor-endpoints.controller';
import { SandboxGatewayController } from './sandbox-gateway.controller';

/**
 * The gateway's routes every API serves (contract §10, §13): the sandbox
 * gateway's payer pages and the callbacks of every gateway; each processor's
 * notifications and returns through one entry that dispatches by processor. Each API is
 * deployed alone, so each serves the pages of the attempts it opens and
 * receives their callbacks; both apply them to the same aggregates (a
 * chargeback's to its dispute).
 */
@Module({
  imports: [ProcessorsModule, PaymentsModule, DisputesModule, ProcessorReportsModule],
  controllers: [SandboxGatewayController, GatewayCallbackController, ProcessorEndpointsController],
})
export class GatewayRoutesModule {}

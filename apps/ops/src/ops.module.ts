import { DynamicModule, Module } from '@nestjs/common';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { DisputesModule } from '@pcs/disputes';
import { MerchantsModule } from '@pcs/merchants';
import { PaymentIntentActivityModule } from '@pcs/payments';
import { ProcessorsModule } from '@pcs/processors';
import { ProcessorReportsModule } from '@pcs/processor-reports';
import { SettlementModule } from '@pcs/settlement';
import { WebhookEndpointsModule } from '@pcs/notifications';
import { operatorActor, OperatorOnDuty } from './operator-actor';

/** The domain without HTTP: what the operator's commands and the demo seed use. */
@Module({})
export class OpsModule {
  /** `actor`: who runs its commands, as their audit entries name them (contract §27); by default this process's operator. */
  static forRoot(settings: RuntimeSettings, actor: string = operatorActor()): DynamicModule {
    return {
      module: OpsModule,
      providers: [{ provide: OperatorOnDuty, useValue: new OperatorOnDuty(actor) }],
      exports: [OperatorOnDuty],
      imports: [
        RuntimeSettingsModule.forRoot(settings),
        DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: 2, sessionUrl: settings.sessionDatabaseUrl }),
        CatalogModule,
        BusinessesModule,
        MerchantsModule,
        // Without their workers: a command runs what it is asked, nothing in the background.
        SettlementModule,
        // The processors' adapters, for the reconciliation with their reports.
        ProcessorsModule,
        ProcessorReportsModule,
        // The sandbox's disputes (sandbox:dispute), without the worker that decides them (the API processes run it);
        // the payment intents they reach need the payers' port answered, as in the APIs.
        PaymentIntentActivityModule,
        DisputesModule,
        // Webhook endpoints without their delivery workers (the master key's rotation reseals their secrets).
        WebhookEndpointsModule,
      ],
    };
  }
}

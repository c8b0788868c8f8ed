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

/** The domain without HTTP: what the operator's commands and the demo seed use. */
@Module({})
export class OpsModule {
  static forRoot(settings: RuntimeSettings): DynamicModule {
    return {
      module: OpsModule,
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

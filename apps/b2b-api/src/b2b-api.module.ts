import { DynamicModule, Module } from '@nestjs/common';
import { BusinessesModule, CredentialService } from '@pcs/businesses';
import { ApiAuditTrail } from '@pcs/dashboard-identity';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { GatewayRoutesModule } from '@pcs/gateway-routes';
import { HttpFoundationModule } from '@pcs/http';
import { MerchantsModule } from '@pcs/merchants';
import { NotificationsModule } from '@pcs/notifications';
import { PaymentIntentActivityModule, PaymentsModule } from '@pcs/payments';
import { SettlementWorkersModule } from '@pcs/settlement';
import { ProcessorReportsWorkersModule } from '@pcs/processor-reports';
import { CheckoutController } from './checkout/checkout.controller';
import { MerchantCountriesController } from './merchant/merchant-countries.controller';
import { B2bPaymentIntentController } from './payment-intent/b2b-payment-intent.controller';
import { B2bInstallmentsController } from './installments/installments.controller';

/**
 * The B2B API: merchant countries, payment intents with a hosted-checkout
 * redirect, and the pages a payer sees on the way (the checkout, the sandbox
 * gateway) with the gateway callbacks, so that it works deployed alone.
 */
@Module({})
export class B2bApiModule {
  static forRoot(settings: RuntimeSettings, logLevel = 'info'): DynamicModule {
    return {
      module: B2bApiModule,
      imports: [
        RuntimeSettingsModule.forRoot(settings),
        DatabaseModule.forApi(settings),
        HttpFoundationModule.forRoot({
          area: 'B2B',
          app: 'b2b-api',
          logLevel,
          // The ports of the HTTP layer: the businesses' credentials, the dashboard identity's audit trail.
          imports: [BusinessesModule],
          credentials: CredentialService,
          audit: ApiAuditTrail,
        }),
        CatalogModule,
        BusinessesModule,
        MerchantsModule,
        PaymentIntentActivityModule,
        PaymentsModule,
        GatewayRoutesModule,
        // No routes here: its workers deliver events and emails like the payins API's (contract §15).
        NotificationsModule,
        // Its payout worker and daily settlement runs, like the payins API's (each API works deployed alone).
        SettlementWorkersModule,
        ProcessorReportsWorkersModule,
      ],
      controllers: [MerchantCountriesController, B2bPaymentIntentController, B2bInstallmentsController, CheckoutController],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { BusinessesModule, CredentialService } from '@pcs/businesses';
import { ApiAuditTrail } from '@pcs/dashboard-identity';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { GatewayRoutesModule } from '@pcs/gateway-routes';
import { PROCESSOR_ACCOUNT_ROUTES, ProcessorsModule } from '@pcs/processors';
import { HttpFoundationModule } from '@pcs/http';
import { MerchantsModule } from '@pcs/merchants';
import { NotificationsModule } from '@pcs/notifications';
import { PayersModule } from '@pcs/payers';
import { PaymentInstrumentsModule } from '@pcs/payment-instruments';
import { PaymentIntentActivityModule, PaymentsModule } from '@pcs/payments';
import { BusinessCountryProcessorController } from './business-country-processor/business-country-processor.controller';
import { PaymentMethodImageController } from './catalog/payment-method-image.controller';
import { MerchantController } from './merchant/merchant.controller';
import { MerchantCountryProcessorController } from './merchant-country-processor/merchant-country-processor.controller';
import { PayerController } from './payer/payer.controller';
import { PaymentInstrumentController } from './payment-instrument/payment-instrument.controller';
import { PaymentMethodController } from './payment-method/payment-method.controller';
import { PayinController } from './payin/payin.controller';
import { PaymentIntentController } from './payment-intent/payment-intent.controller';
import { LinkController } from './link/link.controller';
import { PayPageController } from './pay-page/pay-page.controller';
import { EventController } from './event/event.controller';
import { WebhookEndpointController } from './webhook-endpoint/webhook-endpoint.controller';
import { providerAccountController } from './gateway-account/provider-account';
import { SettlementWorkersModule } from '@pcs/settlement';
import { BankController } from './settlement/bank.controller';
import { SettlementAccountController } from './settlement/settlement-account.controller';
import { BalanceController } from './settlement/balance.controller';
import { PayoutController } from './settlement/payout.controller';
import { ReconciliationRunController } from './settlement/reconciliation-run.controller';
import { ProcessorReportsWorkersModule } from '@pcs/processor-reports';
import { DisputeWorkersModule } from '@pcs/disputes';
import { BillingWorkersModule } from '@pcs/billing';
import { SubscriptionController } from './subscription/subscription.controller';
import { TestClockController } from './subscription/test-clock.controller';
import { CardSetupController } from './payment-instrument/card-setup.controller';
import { SetupPageController } from './setup-page/setup-page.controller';
import { CredentialController } from './credential/credential.controller';
import { DisputeController } from './dispute/dispute.controller';
import { auditKeyOf, DashboardIdentity, dashboardIdentityOn } from '@pcs/dashboard-identity';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InstallmentsController } from './installments/installments.controller';
import { ProcessorHealthController, RoutingController } from './routing/routing.controller';
import { CardTestingController } from './card-testing/card-testing.controller';

/** The payins API: merchants, payers, instruments, payment intents, links, payins. */
@Module({})
export class PayinsApiModule {
  static forRoot(settings: RuntimeSettings, logLevel = 'info'): DynamicModule {
    return {
      module: PayinsApiModule,
      imports: [
        RuntimeSettingsModule.forRoot(settings),
        DatabaseModule.forApi(settings),
        HttpFoundationModule.forRoot({
          area: 'Payins',
          app: 'payins-api',
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
        PayersModule,
        PaymentInstrumentsModule,
        PaymentsModule,
        GatewayRoutesModule,
        ProcessorsModule,
        NotificationsModule,
        SettlementWorkersModule,
        ProcessorReportsWorkersModule,
        DisputeWorkersModule,
        BillingWorkersModule,
      ],
      providers: [
        {
          // Its admins' second factor confirms a new settlement account (contract §24); their audit log records it.
          provide: DashboardIdentity,
          inject: [getDataSourceToken(), RuntimeSettings],
          useFactory: (dataSource: DataSource, runtime: RuntimeSettings) =>
            dashboardIdentityOn(dataSource, runtime.secretBox(), {
              auditKeys: runtime.masterKeyRing.map(auditKeyOf),
            }),
        },
      ],
      controllers: [
        MerchantController,
        ...PROCESSOR_ACCOUNT_ROUTES.map((route) => providerAccountController(route)),
        WebhookEndpointController,
        EventController,
        MerchantCountryProcessorController,
        BusinessCountryProcessorController,
        PaymentMethodController,
        PaymentMethodImageController,
        PayerController,
        CardSetupController,
        PaymentInstrumentController,
        PaymentIntentController,
        InstallmentsController,
        RoutingController,
        CardTestingController,
        ProcessorHealthController,
        LinkController,
        PayPageController,
        SetupPageController,
        PayinController,
        BalanceController,
        PayoutController,
        SettlementAccountController,
        BankController,
        ReconciliationRunController,
        DisputeController,
        SubscriptionController,
        TestClockController,
        CredentialController,
      ],
    };
  }
}

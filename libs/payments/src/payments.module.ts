import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { GatewaysModule } from '@pcs/gateways';
import { LinksModule } from '@pcs/links';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PaymentInstrumentsModule } from '@pcs/payment-instruments';
import { SettlementModule } from '@pcs/settlement';
import { AttemptOutcomes } from './attempts/attempt-outcomes';
import { PaymentAttemptParties } from './attempts/payment-attempt-parties';
import { PaymentAttemptsService } from './attempts/payment-attempts.service';
import { AvailableProcessorsService } from './available-processors.service';
import { B2bCheckoutRepository } from './b2b/b2b-checkout.repository';
import { B2bCheckoutService } from './b2b/b2b-checkout.service';
import { B2bPaymentIntentsService } from './b2b/b2b-payment-intents.service';
import { CheckoutExpiryService } from './b2b/checkout-expiry.service';
import { IntentDisputes } from './disputes/intent-disputes.service';
import { CreationRules } from './creation/creation-rules';
import { FastPaymentIntentService } from './creation/fast-payment-intent.service';
import { LinkPaymentIntentService } from './creation/link-payment-intent.service';
import { PaymentIntentCreationService } from './creation/payment-intent-creation.service';
import { SessionExpiryService } from './expiry/session-expiry.service';
import { GatewayEventsService } from './gateway-events/gateway-events.service';
import { GatewayNotifications } from './gateway-events/gateway-notifications.service';
import { LinkCheckoutService } from './link-checkout/link-checkout.service';
import { PaymentIntentQueriesService } from './payment-intent-queries.service';
import { GatewayEventLog, PaymentIntentRepository } from './payment-intent.repository';
import { PaymentIntentSweeps } from './payment-intent-sweeps';
import { PaymentLedgerModule } from './ledger/payment-ledger.module';
import { B2bCheckoutOrmEntity } from './persistence/b2b-checkout.orm-entity';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';
import { TypeOrmB2bCheckoutRepository } from './persistence/typeorm-b2b-checkout.repository';
import { TypeOrmGatewayEventLog, TypeOrmPaymentIntentRepository } from './persistence/typeorm-payment-intent.repository';
import { ReconciliationService } from './reconciliation/reconciliation.service';
import { ProcessorRefunds } from './refunds/processor-refunds.service';
import { RefundsService } from './refunds/refunds.service';
import { InstallmentQuotesService } from './installments/installment-quotes.service';
import { CardTestingGuard } from './card-testing/card-testing.guard';
import { CardTestingRecords } from './card-testing/card-testing.records';
import { TypeOrmCardTestingRecords } from './persistence/typeorm-card-testing.records';
import { CardSetupOrmEntity, TypeOrmCardSetupRepository } from './persistence/typeorm-card-setup.repository';
import { CardSetupRepository } from './setup/card-setup.repository';
import { CardSetupService } from './setup/card-setup.service';
import { PixSetupService } from './setup/pix-setup.service';

/**
 * Payments: the payment intent with its attempts, refunds and ledger rows
 * (payins), one home per use case: creation (17, 18), attempts at a gateway
 * (21, off-session charges), gateway events (callbacks), refunds (22, 23),
 * session expiry, reconciliation, queries (19, 20), the available processors
 * that creation, attempts and queries share, B2B intents with their hosted
 * checkout (B5–B7), and the ledger's read model (operation 36: pages, counts,
 * summaries; what processors did beyond our records).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentIntentOrmEntity, B2bCheckoutOrmEntity, CardSetupOrmEntity]),
    PaymentLedgerModule,
    BusinessesModule,
    CatalogModule,
    MerchantsModule,
    PayersModule,
    PaymentInstrumentsModule,
    GatewaysModule,
    LinksModule,
    EventsModule,
    SettlementModule,
  ],
  providers: [
    { provide: PaymentIntentRepository, useClass: TypeOrmPaymentIntentRepository },
    { provide: GatewayEventLog, useClass: TypeOrmGatewayEventLog },
    { provide: B2bCheckoutRepository, useClass: TypeOrmB2bCheckoutRepository },
    B2bPaymentIntentsService,
    B2bCheckoutService,
    CheckoutExpiryService,
    AvailableProcessorsService,
    PaymentAttemptParties,
    AttemptOutcomes,
    PaymentAttemptsService,
    GatewayEventsService,
    GatewayNotifications,
    CreationRules,
    PaymentIntentCreationService,
    FastPaymentIntentService,
    LinkPaymentIntentService,
    LinkCheckoutService,
    PaymentIntentQueriesService,
    RefundsService,
    ProcessorRefunds,
    IntentDisputes,
    SessionExpiryService,
    ReconciliationService,
    PaymentIntentSweeps,
    InstallmentQuotesService,
    CardTestingGuard,
    { provide: CardTestingRecords, useClass: TypeOrmCardTestingRecords },
    { provide: CardSetupRepository, useClass: TypeOrmCardSetupRepository },
    CardSetupService,
    PixSetupService,
  ],
  exports: [
    CardSetupService,
    PixSetupService,
    CardTestingGuard,
    B2bPaymentIntentsService,
    B2bCheckoutService,
    CheckoutExpiryService,
    PaymentAttemptsService,
    GatewayEventsService,
    GatewayNotifications,
    PaymentIntentCreationService,
    FastPaymentIntentService,
    LinkPaymentIntentService,
    LinkCheckoutService,
    PaymentIntentQueriesService,
    RefundsService,
    IntentDisputes,
    SessionExpiryService,
    ReconciliationService,
    PaymentIntentSweeps,
    InstallmentQuotesService,
    GatewaysModule,
    LinksModule,
    PaymentLedgerModule,
  ],
})
export class PaymentsModule {}

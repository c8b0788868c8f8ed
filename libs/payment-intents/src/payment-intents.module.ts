import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { GatewaysModule } from '@pcs/gateways';
import { LinksModule } from '@pcs/links';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PayinsModule } from '@pcs/payins';
import { PaymentInstrumentsModule } from '@pcs/payment-instruments';
import { AttemptOutcomes } from './attempts/attempt-outcomes';
import { PaymentAttemptParties } from './attempts/payment-attempt-parties';
import { PaymentAttemptsService } from './attempts/payment-attempts.service';
import { AvailableProcessorsService } from './available-processors.service';
import { CreationRules } from './creation/creation-rules';
import { FastPaymentIntentService } from './creation/fast-payment-intent.service';
import { LinkPaymentIntentService } from './creation/link-payment-intent.service';
import { PaymentIntentCreationService } from './creation/payment-intent-creation.service';
import { SessionExpiryService } from './expiry/session-expiry.service';
import { GatewayEventsService } from './gateway-events/gateway-events.service';
import { LinkCheckoutService } from './link-checkout/link-checkout.service';
import { PaymentIntentQueriesService } from './payment-intent-queries.service';
import { GatewayEventLog, PaymentIntentRepository } from './payment-intent.repository';
import { PaymentIntentSweeps } from './payment-intent-sweeps';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';
import { TypeOrmGatewayEventLog, TypeOrmPaymentIntentRepository } from './persistence/typeorm-payment-intent.repository';
import { ReconciliationService } from './reconciliation/reconciliation.service';
import { RefundsService } from './refunds/refunds.service';

/**
 * Payment intents, one home per use case: creation (17, 18), attempts at a
 * gateway (21, off-session charges), gateway events (callbacks), refunds (22,
 * 23), session expiry, reconciliation, queries (19, 20), and the available
 * processors that creation, attempts and queries share.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentIntentOrmEntity]),
    CatalogModule,
    MerchantsModule,
    PayersModule,
    PaymentInstrumentsModule,
    PayinsModule,
    GatewaysModule,
    LinksModule,
  ],
  providers: [
    { provide: PaymentIntentRepository, useClass: TypeOrmPaymentIntentRepository },
    { provide: GatewayEventLog, useClass: TypeOrmGatewayEventLog },
    AvailableProcessorsService,
    PaymentAttemptParties,
    AttemptOutcomes,
    PaymentAttemptsService,
    GatewayEventsService,
    CreationRules,
    PaymentIntentCreationService,
    FastPaymentIntentService,
    LinkPaymentIntentService,
    LinkCheckoutService,
    PaymentIntentQueriesService,
    RefundsService,
    SessionExpiryService,
    ReconciliationService,
    PaymentIntentSweeps,
  ],
  exports: [
    PaymentAttemptsService,
    GatewayEventsService,
    PaymentIntentCreationService,
    FastPaymentIntentService,
    LinkPaymentIntentService,
    LinkCheckoutService,
    PaymentIntentQueriesService,
    RefundsService,
    SessionExpiryService,
    ReconciliationService,
    PaymentIntentSweeps,
    GatewaysModule,
    LinksModule,
    PayinsModule,
  ],
})
export class PaymentIntentsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { GatewaysModule } from '@pcs/gateways';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PayinsModule } from '@pcs/payins';
import { PaymentInstrumentsModule } from '@pcs/payment-instruments';
import { PaymentAttemptParties } from './payment-attempt-parties';
import { PaymentAttemptsService } from './payment-attempts.service';
import { PaymentIntentCreationService } from './payment-intent-creation.service';
import { PaymentIntentQueriesService } from './payment-intent-queries.service';
import { PaymentIntentRepository } from './payment-intent.repository';
import { PaymentIntentSweeps } from './payment-intent-sweeps';
import { PaymentIntentOrmEntity } from './persistence/payment-intent.orm-entity';
import { RefundsService } from './refunds.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentIntentOrmEntity]),
    CatalogModule,
    MerchantsModule,
    PayersModule,
    PaymentInstrumentsModule,
    PayinsModule,
    GatewaysModule,
  ],
  providers: [
    PaymentIntentRepository,
    PaymentAttemptParties,
    PaymentAttemptsService,
    PaymentIntentCreationService,
    PaymentIntentQueriesService,
    RefundsService,
    PaymentIntentSweeps,
  ],
  exports: [
    PaymentAttemptsService,
    PaymentIntentCreationService,
    PaymentIntentQueriesService,
    RefundsService,
    PaymentIntentSweeps,
    GatewaysModule,
    PayinsModule,
  ],
})
export class PaymentIntentsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { PayinOrmEntity } from '../persistence/payin.orm-entity';
import { TypeOrmPayinLedgerQueries } from '../persistence/typeorm-payin-ledger.queries';
import { TypeOrmPayinRepository } from '../persistence/typeorm-payin.repository';
import { TypeOrmProcessorFindingRepository } from '../persistence/typeorm-processor-finding.repository';
import { PayinLedgerQueries } from './payin-ledger.queries';
import { PayinLedgerService } from './payin-ledger.service';
import { PayinRepository } from './payin.repository';
import { ProcessorFindingRepository } from './processor-finding.repository';

/**
 * The payments context's ledger rows (payins) and their read model, wired
 * alone for the contexts that only read or annotate them (notifications,
 * processor reports, disputes) without the whole payments module;
 * PaymentsModule imports and exports it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PayinOrmEntity]), EventsModule],
  providers: [
    TypeOrmPayinRepository,
    { provide: PayinRepository, useExisting: TypeOrmPayinRepository },
    { provide: PayinLedgerQueries, useClass: TypeOrmPayinLedgerQueries },
    { provide: ProcessorFindingRepository, useClass: TypeOrmProcessorFindingRepository },
    PayinLedgerService,
  ],
  // The intent's repository adapter composes the refund's records into the intent's own statements (one aggregate).
  exports: [PayinRepository, TypeOrmPayinRepository, ProcessorFindingRepository, PayinLedgerService],
})
export class PaymentLedgerModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { PayinLedgerService } from './payin-ledger.service';
import { PayinLedgerQueries } from './payin-ledger.queries';
import { PayinRepository } from './payin.repository';
import { PayinOrmEntity } from './persistence/payin.orm-entity';
import { TypeOrmPayinLedgerQueries } from './persistence/typeorm-payin-ledger.queries';
import { TypeOrmPayinRepository } from './persistence/typeorm-payin.repository';
import { TypeOrmProcessorFindingRepository } from './persistence/typeorm-processor-finding.repository';
import { ProcessorFindingRepository } from './processor-finding.repository';

@Module({
  imports: [TypeOrmModule.forFeature([PayinOrmEntity]), EventsModule],
  providers: [
    { provide: PayinRepository, useClass: TypeOrmPayinRepository },
    { provide: PayinLedgerQueries, useClass: TypeOrmPayinLedgerQueries },
    { provide: ProcessorFindingRepository, useClass: TypeOrmProcessorFindingRepository },
    PayinLedgerService,
  ],
  exports: [PayinLedgerService],
})
export class PayinsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { PayinLedgerService } from './payin-ledger.service';
import { PayinRepository } from './payin.repository';
import { PayinOrmEntity } from './persistence/payin.orm-entity';
import { TypeOrmPayinRepository } from './persistence/typeorm-payin.repository';

@Module({
  imports: [TypeOrmModule.forFeature([PayinOrmEntity]), EventsModule],
  providers: [{ provide: PayinRepository, useClass: TypeOrmPayinRepository }, PayinLedgerService],
  exports: [PayinLedgerService],
})
export class PayinsModule {}

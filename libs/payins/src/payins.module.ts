import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PayinLedgerService } from './payin-ledger.service';
import { PayinOrmEntity } from './persistence/payin.orm-entity';

@Module({
  imports: [TypeOrmModule.forFeature([PayinOrmEntity])],
  providers: [PayinLedgerService],
  exports: [PayinLedgerService],
})
export class PayinsModule {}

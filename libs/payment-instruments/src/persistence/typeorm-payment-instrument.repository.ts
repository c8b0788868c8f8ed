import { Injectable } from '@nestjs/common';
import { EntityColumns, Guard, managerOf, queryPrepared, Requirement, scopeCondition, scopeWhere } from '@pcs/database';
import { PayerId, PaymentInstrumentId, TenantScope, Transaction } from '@pcs/kernel';
import { PaymentInstrument } from '../domain/payment-instrument';
import { PaymentInstrumentRepository } from '../payment-instrument.repository';
import { instrumentFromRow, instrumentToRow } from './payment-instrument.mapper';
import { PaymentInstrumentOrmEntity } from './payment-instrument.orm-entity';

@Injectable()
export class TypeOrmPaymentInstrumentRepository extends PaymentInstrumentRepository {
  async findVisible(tx: Transaction, scope: TenantScope, paymentInstrumentId: PaymentInstrumentId): Promise<PaymentInstrument | null> {
    const manager = managerOf(tx);
    // The read of every saved card's charge: a prepared statement (TypeORM builds and sends its text anew each time).
    const columns = new EntityColumns(manager, PaymentInstrumentOrmEntity, 'i_');
    const values: unknown[] = [paymentInstrumentId];
    const [row] = await queryPrepared<Record<string, unknown>>(
      manager,
      `SELECT ${columns.select('i')} FROM payment_instrument i WHERE i.payment_instrument_id = $1 AND ${scopeCondition(scope, 'i', values)}`,
      values,
    );
    const entity = row && columns.from(row);
    return entity ? instrumentFromRow(entity) : null;
  }

  async findById(tx: Transaction, paymentInstrumentId: PaymentInstrumentId, lock = false): Promise<PaymentInstrument | null> {
    const manager = managerOf(tx);
    // Locked only to change what a gateway taught (its token, brand, validation), never its key: FOR NO KEY
    // UPDATE, which payment intents being created for the instrument meanwhile (their foreign key's KEY SHARE)
    // do not wait for. FOR UPDATE made them wait behind a charge's outcome, and deadlock with it.
    const row = await manager.findOne(PaymentInstrumentOrmEntity, {
      where: { paymentInstrumentId },
      ...(lock ? { lock: { mode: 'for_no_key_update' as const } } : {}),
    });
    return row ? instrumentFromRow(row) : null;
  }

  async findActive(
    tx: Transaction,
    criteria: { payerId: PayerId; paymentMethodId: string; countryId: string; paymentInstrumentTypeId: string | null },
  ): Promise<PaymentInstrument | null> {
    const manager = managerOf(tx);
    const { paymentInstrumentTypeId, ...rest } = criteria;
    const row = await manager.findOne(PaymentInstrumentOrmEntity, {
      where: { ...rest, status: 'ACTIVE', ...(paymentInstrumentTypeId ? { paymentInstrumentTypeId } : {}) },
      order: { createdAt: 'DESC' },
    });
    return row ? instrumentFromRow(row) : null;
  }

  async ofPayer(tx: Transaction, payerId: PayerId): Promise<PaymentInstrument[]> {
    const manager = managerOf(tx);
    return (await manager.find(PaymentInstrumentOrmEntity, { where: { payerId }, order: { createdAt: 'DESC' } })).map(instrumentFromRow);
  }

  async newest(tx: Transaction, scope: TenantScope, limit: number): Promise<PaymentInstrument[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(PaymentInstrumentOrmEntity, {
      where: scopeWhere(scope),
      order: { createdAt: 'DESC', paymentInstrumentId: 'ASC' },
      take: limit,
    });
    return rows.map(instrumentFromRow);
  }

  async save(tx: Transaction, instrument: PaymentInstrument): Promise<void> {
    const manager = managerOf(tx);
    await manager.save(instrumentToRow(instrument));
  }

  whileActive(paymentInstrumentId: PaymentInstrumentId, payerId: PayerId): Requirement {
    return Requirement.of(
      'EXISTS (SELECT 1 FROM payment_instrument WHERE payment_instrument_id = $1 AND payer_id = $2 AND active FOR KEY SHARE)',
      [paymentInstrumentId, payerId],
      'the payment instrument is not active',
    );
  }

  lessonAlongside(instrument: PaymentInstrument): Guard {
    const i = instrument.snapshot();
    return Guard.of(
      `UPDATE payment_instrument
          SET external_id = $2, card_brand = $3, card_last4 = $4, validated = validated OR $5, updated_at = $6
        WHERE payment_instrument_id = $1 RETURNING payment_instrument_id`,
      [i.paymentInstrumentId, i.externalId, i.cardBrand, i.cardLast4, i.validated, i.updatedAt],
    );
  }
}

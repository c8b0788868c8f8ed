import { Injectable } from '@nestjs/common';
import { managerOf } from '@pcs/database';
import { EventRecorder } from '@pcs/events';
import type { PixMandateTerms } from '@pcs/payment-instruments';
import { asBusinessId, asMerchantId, asPayerId, TenantScope, Transaction } from '@pcs/kernel';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CardSetup } from '../setup/card-setup';
import { CardSetupRepository } from '../setup/card-setup.repository';

@Entity({ name: 'payment_instrument_setup' })
export class CardSetupOrmEntity {
  @PrimaryColumn({ name: 'setup_id', type: 'uuid' }) setupId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'payer_id', type: 'uuid' }) payerId: string;
  @Column({ name: 'country_processor_id', type: 'uuid', nullable: true }) countryProcessorId: string | null;
  @Column({ name: 'return_url', type: 'text' }) returnUrl: string;
  @Column({ name: 'subscription_id', type: 'uuid', nullable: true }) subscriptionId: string | null;
  @Column({ name: 'pix_mandate', type: 'jsonb', nullable: true }) pixMandate: PixMandateTerms | null;
  @Column({ name: 'pix_reference', type: 'text', nullable: true }) pixReference: string | null;
  @Column({ name: 'pix_authorise_url', type: 'text', nullable: true }) pixAuthoriseUrl: string | null;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'payment_instrument_id', type: 'uuid', nullable: true }) paymentInstrumentId: string | null;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
}

function fromRow(row: CardSetupOrmEntity): CardSetup {
  return CardSetup.restore({
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    payerId: asPayerId(row.payerId),
    status: row.status as 'OPEN' | 'COMPLETED',
  });
}

@Injectable()
export class TypeOrmCardSetupRepository extends CardSetupRepository {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async insert(tx: Transaction, setup: CardSetup): Promise<void> {
    await managerOf(tx).insert(CardSetupOrmEntity, Object.assign(new CardSetupOrmEntity(), setup.snapshot()));
  }

  async find(tx: Transaction, setupId: string, scope: TenantScope | null, lock = false): Promise<CardSetup | null> {
    const query = managerOf(tx).createQueryBuilder(CardSetupOrmEntity, 's').where('s.setup_id = :setupId', { setupId });
    if (scope) {
      query.andWhere('s.business_id = :businessId', { businessId: scope.businessId });
      if (scope.merchantId) query.andWhere('s.merchant_id = :merchantId', { merchantId: scope.merchantId });
    }
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? fromRow(row) : null;
  }

  async pixRequested(tx: Transaction, setup: CardSetup): Promise<void> {
    const { setupId, pixReference, pixAuthoriseUrl } = setup.snapshot();
    await managerOf(tx).update(CardSetupOrmEntity, { setupId }, { pixReference, pixAuthoriseUrl });
  }

  async completed(tx: Transaction, setup: CardSetup, instrument: object): Promise<void> {
    const { setupId, status, paymentInstrumentId, completedAt, businessId, merchantId } = setup.snapshot();
    await managerOf(tx).update(CardSetupOrmEntity, { setupId }, { status, paymentInstrumentId, completedAt });
    await this.events.record(tx, {
      type: 'payment_instrument.created',
      businessId,
      merchantId,
      subjectId: paymentInstrumentId!,
      object: instrument,
    });
  }
}

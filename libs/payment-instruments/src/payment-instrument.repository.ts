import { BusinessId, Caller, MerchantId, PayerId, PaymentInstrumentId } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import { PaymentInstrument } from './domain/payment-instrument';

/** Where payment instruments are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class PaymentInstrumentRepository {
  /** An instrument of the caller's business (and merchant, for merchant credentials); its payer's liveness is the service's to check. */
  abstract findVisible(manager: EntityManager, caller: Caller, paymentInstrumentId: PaymentInstrumentId): Promise<PaymentInstrument | null>;
  abstract findById(manager: EntityManager, paymentInstrumentId: PaymentInstrumentId, lock?: boolean): Promise<PaymentInstrument | null>;
  /** The payer's newest ACTIVE instrument for a method in a country (of one instrument type, when given). */
  abstract findActive(
    manager: EntityManager,
    criteria: { payerId: PayerId; paymentMethodId: string; countryId: string; paymentInstrumentTypeId: string | null },
  ): Promise<PaymentInstrument | null>;
  /** A payer's instruments, newest first. */
  abstract ofPayer(manager: EntityManager, payerId: PayerId): Promise<PaymentInstrument[]>;
  /** The newest `limit` instruments of a business (one merchant's, when given). */
  abstract newest(
    manager: EntityManager,
    businessId: BusinessId,
    merchantId: MerchantId | undefined,
    limit: number,
  ): Promise<PaymentInstrument[]>;
  abstract save(manager: EntityManager, instrument: PaymentInstrument): Promise<void>;
}

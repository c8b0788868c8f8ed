import { TenantScope, Transaction } from '@pcs/kernel';
import { CardSetup } from './card-setup';

/** Where card setups are kept (port; the TypeORM adapter is in persistence/). */
export abstract class CardSetupRepository {
  abstract insert(tx: Transaction, setup: CardSetup): Promise<void>;
  /** Within the scope (null: any, for the payer's page); with `lock`, taken for update. */
  abstract find(tx: Transaction, setupId: string, scope: TenantScope | null, lock?: boolean): Promise<CardSetup | null>;
  /** The Pix Automático authorisation asked for (or refused): its reference and journey's address. */
  abstract pixRequested(tx: Transaction, setup: CardSetup): Promise<void>;
  /** The completed setup, and `payment_instrument.created` with the instrument as the API shows it. */
  abstract completed(tx: Transaction, setup: CardSetup, instrument: object): Promise<void>;
}

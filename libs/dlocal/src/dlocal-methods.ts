import type { CollectionMethod } from '@pcs/gateways';

const CARDS = ['CREDIT_CARD', 'DEBIT_CARD', 'PREPAID_CARD'];

/**
 * Which of the catalog's methods dLocal collects, and as which of its
 * `payment_method_id`s (dLocal's country pages: Uruguay, Argentina, Brazil).
 * Cards go as `CARD` (dLocal's page lets the payer pick the brand); the
 * catalog names no Uruguayan cash network (Abitab, Red Pagos) nor a bank
 * transfer dLocal takes in Uruguay, so none is routed there.
 */
export const DLOCAL_METHODS: readonly {
  readonly country: string;
  readonly instrumentTypes: readonly string[];
  readonly methods: readonly string[];
  readonly code: string;
  /** How docs/processors.md names it. */
  readonly what: string;
}[] = [
  { country: 'URY', instrumentTypes: CARDS, methods: ['VISA', 'MASTER_CARD', 'OCA'], code: 'CARD', what: 'cards' },
  { country: 'ARG', instrumentTypes: CARDS, methods: ['VISA', 'MASTER_CARD', 'AMERICAN_EXPRESS'], code: 'CARD', what: 'cards' },
  { country: 'ARG', instrumentTypes: ['BANK_TRANSFER'], methods: ['BBVA', 'SANTANDER'], code: 'IO', what: 'bank transfer' },
  // The catalog's Argentine cash voucher (CASH, MERCADO_PAGO): a voucher paid at a Rapipago counter.
  { country: 'ARG', instrumentTypes: ['CASH'], methods: ['MERCADO_PAGO'], code: 'RP', what: 'cash voucher (Rapipago)' },
  { country: 'BRA', instrumentTypes: ['PIX'], methods: ['PIX'], code: 'PQ', what: 'PIX' },
  { country: 'BRA', instrumentTypes: CARDS, methods: ['VISA', 'MASTER_CARD', 'AMERICAN_EXPRESS'], code: 'CARD', what: 'cards' },
  { country: 'BRA', instrumentTypes: ['A2A'], methods: ['ITAU'], code: 'I', what: 'bank transfer (Itaú)' },
  { country: 'BRA', instrumentTypes: ['A2A'], methods: ['SANTANDER'], code: 'SB', what: 'bank transfer (Santander)' },
];

/** dLocal's payment_method_id for a catalog method, or null when dLocal does not collect it there. */
export function dlocalMethodOf(method: CollectionMethod): string | null {
  const row = DLOCAL_METHODS.find(
    (m) => m.country === method.country && m.instrumentTypes.includes(method.instrumentType) && m.methods.includes(method.paymentMethod),
  );
  return row?.code ?? null;
}

/** ISO 3166 alpha-2 of the countries dLocal collects in here. */
export const DLOCAL_COUNTRY: Readonly<Record<string, string>> = { URY: 'UY', ARG: 'AR', BRA: 'BR' };

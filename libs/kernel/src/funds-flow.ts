/**
 * Where a payment's money goes (contract §23), the words shared by the
 * gateway accounts, the payins ledger, disputes and settlement.
 *
 * - `PLATFORM`: the processor account is the business's; the processor pays
 *   the business, which holds the merchant's money and pays it out.
 * - `MERCHANT`: the account is the merchant's own; the processor pays the
 *   merchant, and the business only takes its fee.
 */
export const FUNDS_FLOWS = ['PLATFORM', 'MERCHANT'] as const;
export type FundsFlow = (typeof FUNDS_FLOWS)[number];

export function isFundsFlow(value: unknown): value is FundsFlow {
  return value === 'PLATFORM' || value === 'MERCHANT';
}

/** Where a payin's availability date came from: the processor's release date, or our business-day calendar. */
export const LIQUIDATION_SOURCES = ['PROCESSOR', 'CALENDAR'] as const;
export type LiquidationSource = (typeof LIQUIDATION_SOURCES)[number];

/** Who made a refund: the APIs (operations 22–23), the dashboard, a link's page, or the processor itself (its panel, its API). */
export const REFUND_ORIGINS = ['API', 'DASHBOARD', 'LINK', 'PROCESSOR'] as const;
export type RefundOrigin = (typeof REFUND_ORIGINS)[number];

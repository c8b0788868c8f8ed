import type { FixedFees, ProcessorPrice } from '@pcs/catalog';
import { Currency, decimalToScaledInteger, Money } from '@pcs/kernel';

/** What a merchant pays for one country processor, and how long its money waits (contract §19). */
export interface MerchantPrice extends ProcessorPrice {
  /** Business days from approval until the money is available (0: at approval). */
  readonly settlementDelayDays: number;
  /** Whether the operator set it for this merchant (otherwise it is the catalog's). */
  readonly custom: boolean;
}

/** The highest percentage a price may have (contract §19: 0–20, at most two decimals). */
export const MAX_PERCENTAGE_BP = 2_000;
export const MAX_SETTLEMENT_DELAY_DAYS = 60;

/** A percentage as sent (3.49) in basis points (349); null when it is not 0–20 with at most two decimals. */
export function percentageToBasisPoints(value: number): number | null {
  const bp = decimalToScaledInteger(value, 2);
  return bp === null || bp < 0 || bp > MAX_PERCENTAGE_BP ? null : bp;
}

export interface Fees {
  /** The fee: the percentage of what the payer paid, rounded (§8), plus the currency's fixed fee. */
  readonly fee: Money;
  /** The country's tax on the fee, rounded. */
  readonly feeTax: Money;
  /** What the merchant keeps: received − fee − tax (negative when a fixed fee exceeds a tiny payment). */
  readonly net: Money;
}

/**
 * The fees of a payin of `received` (contract §19):
 * fee = round(received × percentage / 100) + fixed, tax = round(fee × feeTax / 100).
 */
export function feesOf(received: Money, price: ProcessorPrice, feeTaxBp: number): Fees {
  const fee = received.rateOf(price.percentageBp).plus(Money.ofMinor(fixedFeeOf(price.fixed, received.currency), received.currency));
  const feeTax = fee.rateOf(feeTaxBp);
  return { fee, feeTax, net: received.minus(fee).minus(feeTax) };
}

export function fixedFeeOf(fixed: FixedFees, currency: Currency): number {
  return fixed[currency] ?? 0;
}

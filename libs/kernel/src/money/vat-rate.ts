import { decimalToScaledInteger, scaledIntegerToDecimal } from './decimal';

/**
 * VAT percentages travel as numbers (10.5) and live as integer basis points
 * (1050) so that comparisons and the VAT split never touch floats.
 */
export function vatPercentageToBasisPoints(percentage: number): number | null {
  const bp = decimalToScaledInteger(percentage, 2);
  if (bp === null || bp < 0 || bp > 10_000) return null;
  return bp;
}

export function basisPointsToVatPercentage(basisPoints: number): number {
  return scaledIntegerToDecimal(basisPoints, 2);
}

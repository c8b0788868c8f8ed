import type {
  CollectionMethod,
  InstallmentOffer,
  InstallmentQuoteRequest,
  PaidPlan,
  ProcessorInstallmentPlan,
} from '../payment-gateway.port';

/**
 * The sandbox's installment plans (contract §25), a published and deterministic table (docs/money.md,
 * "Installments"): card payments in Uruguay in 1–3, 6, 9 or 12 installments, in Argentina and Brazil
 * also 18 and 24; any other method and country in one payment only. Interest is simple, per month of
 * the plan beyond the first: the payer pays 2.5 % of the amount a month for a plan with interest; for a
 * plan the merchant offers interest-free (its policy's interestFreeUpTo) the payer pays the amount and
 * the merchant a financing fee of 1.5 % a month. Each figure is rounded half up to the minor unit; the
 * installment is the total over the count, rounded the same way (the first installment takes the cent).
 */
export const SANDBOX_INSTALLMENT_COUNTS: Readonly<Record<string, readonly number[]>> = {
  URY: [1, 2, 3, 6, 9, 12],
  ARG: [1, 2, 3, 6, 9, 12, 18, 24],
  BRA: [1, 2, 3, 6, 9, 12, 18, 24],
};
/** Basis points of the amount per month beyond the first. */
export const SANDBOX_PAYER_INTEREST_BP_PER_MONTH = 250;
export const SANDBOX_MERCHANT_FINANCING_BP_PER_MONTH = 150;

const CARD_TYPES = new Set(['CREDIT_CARD']);

function share(amount: number, basisPoints: number): number {
  return Math.round((amount * basisPoints) / 10_000);
}

export function sandboxInstallmentPlans(
  request: Pick<InstallmentQuoteRequest, 'method' | 'amount' | 'interestFreeUpTo'>,
): ProcessorInstallmentPlan[] {
  const counts = CARD_TYPES.has(request.method.instrumentType) ? (SANDBOX_INSTALLMENT_COUNTS[request.method.country] ?? [1]) : [1];
  return counts.map((installments) => {
    const months = installments - 1;
    const interestFree = installments <= Math.max(1, request.interestFreeUpTo);
    const totalAmount = interestFree
      ? request.amount
      : request.amount + share(request.amount, months * SANDBOX_PAYER_INTEREST_BP_PER_MONTH);
    return {
      installments,
      installmentAmount: Math.round(totalAmount / installments),
      totalAmount,
      merchantFinancingFee: interestFree ? share(request.amount, months * SANDBOX_MERCHANT_FINANCING_BP_PER_MONTH) : null,
    };
  });
}

/** What the sandbox keeps of a payment's installments: the merchant's offer with the method it is priced for. */
export interface SandboxInstallmentOffer extends InstallmentOffer {
  readonly method: CollectionMethod;
}

/** The plans the sandbox's page offers for a payment: its table within the merchant's offer (the single payment always). */
export function sandboxOfferedPlans(offer: SandboxInstallmentOffer | null, amount: number): ProcessorInstallmentPlan[] {
  if (!offer) return [{ installments: 1, installmentAmount: amount, totalAmount: amount, merchantFinancingFee: 0 }];
  return sandboxInstallmentPlans({ method: offer.method, amount, interestFreeUpTo: offer.interestFreeUpTo }).filter(
    (plan) =>
      plan.installments === 1 ||
      (plan.installments <= offer.maxInstallments &&
        (offer.minInstallmentAmount === null || plan.installmentAmount >= offer.minInstallmentAmount)),
  );
}

/** What the sandbox reports of a payment paid in `installments` (more than one): the plan, and the merchant's financing fee. */
export function sandboxPaidPlan(
  offer: SandboxInstallmentOffer | null,
  amount: number,
  installments: number | null,
): { plan?: PaidPlan & { installmentAmount: number; payerTotalAmount: number }; processorFinancingFeeAmount?: number } {
  if (!installments || installments === 1) return {};
  const plan = sandboxOfferedPlans(offer, amount).find((p) => p.installments === installments);
  if (!plan) return {};
  return {
    plan: { installments, installmentAmount: plan.installmentAmount, payerTotalAmount: plan.totalAmount },
    ...(plan.merchantFinancingFee !== null ? { processorFinancingFeeAmount: plan.merchantFinancingFee } : {}),
  };
}

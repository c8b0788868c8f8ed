import type { InstallmentPlan } from '@pcs/payments';
import type { InstallmentPlanResponse } from './installments.responses';

export function presentInstallmentPlan(plan: InstallmentPlan): InstallmentPlanResponse {
  return {
    installments: plan.installments,
    installmentAmount: plan.installmentAmount.toWire(),
    totalAmount: plan.totalAmount.toWire(),
    interestFree: plan.interestFree,
    payerRate: plan.payerRateBp / 100,
    merchantFinancingFee: plan.merchantFinancingFee?.toWire() ?? null,
  };
}

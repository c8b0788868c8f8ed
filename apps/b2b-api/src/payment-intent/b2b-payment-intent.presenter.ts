import type { CountryProcessor } from '@pcs/catalog';
import { PaymentIntentType, wireAmount } from '@pcs/kernel';
import { b2bStatus, B2bPaymentIntentView } from '@pcs/payments';
import { B2bPaymentMethodResponse } from '../merchant/merchant-countries.responses';
import { B2bPaymentIntentResponse } from './b2b-payment-intent.responses';

/** Statuses in which the payer can still act at the checkout (its nextAction). */
const PAYABLE = new Set(['REQUIRES_PAYMENT_INSTRUMENT', 'REQUIRES_CONFIRMATION', 'REQUIRES_ACTION']);

/**
 * Processors as B2B payment methods, as B1 shows them: one per instrument
 * type, its currencies in the country's order (local first), its networks.
 */
function asB2bPaymentMethods(processors: readonly CountryProcessor[]): B2bPaymentMethodResponse[] {
  const byType = new Map<string, { order: readonly string[]; currencies: Set<string>; networks: Set<string> }>();
  for (const p of processors) {
    const entry = byType.get(p.paymentInstrumentType.name) ?? { order: p.country.currencies, currencies: new Set(), networks: new Set() };
    p.currencies.forEach((c) => entry.currencies.add(c));
    entry.networks.add(p.paymentMethod.name);
    byType.set(p.paymentInstrumentType.name, entry);
  }
  return [...byType.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { order, currencies, networks }]) => ({
      name,
      currencies: order.filter((c) => currencies.has(c)),
      options: { networks: [...networks].sort() },
    }));
}

export function presentB2bPaymentIntent(view: B2bPaymentIntentView): B2bPaymentIntentResponse {
  const p = view.intent.snapshot();
  const invoice = view.checkout.invoiceDetails;
  return {
    paymentIntentId: p.paymentIntentId,
    merchant: { id: p.merchantId, name: view.merchantName },
    type: PaymentIntentType.ECO,
    externalReference: p.externalReference,
    description: p.description,
    currency: p.currency,
    amount: wireAmount(p.amount, p.currency),
    amountDetails: { tip: wireAmount(p.tipAmount, p.currency), vatAmount: wireAmount(p.taxAmount, p.currency) },
    invoiceDetails: { reference: invoice?.reference ?? null, serie: invoice?.serie ?? null, number: invoice?.number ?? null },
    includeAllPaymentMethods: view.checkout.includeAllPaymentMethods,
    paymentMethod: view.chosen ? (asB2bPaymentMethods([view.chosen])[0] ?? null) : null,
    availablePaymentMethods: asB2bPaymentMethods(view.available),
    status: b2bStatus(p),
    createdAt: p.createdAt.toISOString(),
    nextAction: PAYABLE.has(p.status) ? { type: 'REDIRECT', redirect: { reference: view.checkoutUrl } } : null,
  };
}

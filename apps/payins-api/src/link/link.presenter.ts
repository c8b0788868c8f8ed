import { basisPointsToVatPercentage, wireAmount } from '@pcs/kernel';
import type { LinkView } from '@pcs/links';
import { presentCountryProcessor } from '../catalog/catalog.presenter';
import { LinkResponse } from './link.responses';

/** Whitelists exactly the fields of the Link (specification, contract §12). */
export function presentLink({ link, status, processors, url }: LinkView): LinkResponse {
  const l = link.snapshot();
  return {
    linkId: l.linkId,
    description: l.description,
    currency: l.currency,
    amount: wireAmount(l.amount, l.currency),
    vatPercentage: basisPointsToVatPercentage(l.vatRateBp),
    merchantId: l.merchantId,
    countryId: l.countryId,
    expirationDate: l.expirationDate.toISOString(),
    used: l.used,
    paymentIntentId: l.paymentIntentId,
    usedAt: l.usedAt?.toISOString() ?? null,
    linkCountryProcessors: processors.map((p) => ({
      linkCountryProcessorId: p.linkCountryProcessorId,
      linkId: l.linkId,
      countryProcessorId: p.countryProcessorId,
      countryProcessor: presentCountryProcessor(p.countryProcessor),
    })),
    reference: l.reference,
    status,
    url,
  };
}

import { countryProcessorRepresentation } from '@pcs/catalog';
import { basisPointsToVatPercentage, wireAmount } from '@pcs/kernel';
import type { CountryProcessor } from '@pcs/catalog';
import type { Link, LinkStatus } from './domain/link';
import type { StoredLinkProcessor } from './link.repository';

/** A link as shown: the aggregate, its status now, its processors with their records' ids, its page. */
export interface LinkView {
  readonly link: Link;
  readonly status: LinkStatus;
  readonly processors: readonly (StoredLinkProcessor & { countryProcessor: CountryProcessor })[];
  readonly url: string;
}

/** A link as the payins API shows it (specification, contract §12): operations 29–33, and the object of link events. */
export function linkRepresentation({ link, status, processors, url }: LinkView) {
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
      countryProcessor: countryProcessorRepresentation(p.countryProcessor),
    })),
    reference: l.reference,
    status,
    url,
  };
}

import { Injectable } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayNotice, ProcessorLookups, ReconciledProcessor, ReportingAccount } from '@pcs/gateways';
import { DLOCAL } from './dlocal-account';
import { DLocalRequestError } from './dlocal.client';
import { DLocalGateway } from './dlocal.gateway';
import { disputeNotice } from './dlocal-notifications';
import { DLocalRecords } from './persistence/dlocal-records.repository';

/** What its reconciliation run reads (the run's answer documents it). */
export const DLOCAL_RECONCILIATION: ReconciledProcessor = {
  provider: DLOCAL,
  reads:
    "(contract §28) dLocal's API serves no report, so on the day of the run (from = to) each payment within its " +
    'chargeback window (180 days) is looked up once, and each case we know of read again; what they tell is applied ' +
    'as their notifications would have been.',
};

/**
 * dLocal's daily safety net (contract §28). dLocal delivers its settlement reports by SFTP or
 * e-mail, arranged with its account managers ("Reporting", docs.dlocal.com), not through its
 * API: so each payment still within its chargeback window is looked up instead
 * (`GET /payments/:id`, which lists its refunds), and each chargeback we know of is read again
 * (`GET /chargebacks/:id`), as a notification would have had them read.
 */
@Injectable()
export class DLocalLookups extends ProcessorLookups {
  readonly provider = DLOCAL;

  constructor(
    private readonly gatewayAccounts: GatewayAccounts,
    private readonly gateway: DLocalGateway,
    private readonly records: DLocalRecords,
  ) {
    super();
  }

  async accounts(): Promise<ReportingAccount[]> {
    return (await this.gatewayAccounts.accountsOf(DLOCAL)).map((a) => ({ merchantId: a.merchantId, connectedAt: a.createdAt }));
  }

  payment(merchantId: string, payinId: string): Promise<GatewayNotice> {
    return this.gateway.readPayment(merchantId, payinId);
  }

  async dispute(merchantId: string, reference: string): Promise<GatewayNotice> {
    const client = await this.gateway.clientOf(merchantId);
    try {
      const chargeback = await client.getChargeback(reference);
      const payment = chargeback.payment_id ? await this.records.paymentByDLocalId(chargeback.payment_id) : null;
      if (!payment || payment.merchantId !== merchantId) return { kind: 'UNKNOWN' };
      return disputeNotice(chargeback, payment.payinId);
    } catch (error) {
      if (error instanceof DLocalRequestError && error.status === 404) return { kind: 'UNKNOWN' };
      throw error;
    }
  }
}

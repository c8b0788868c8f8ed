import { Injectable, Logger } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { DisputeReport, GatewayNotice, processorMinor } from '@pcs/gateways';
import { DomainError, isCurrency } from '@pcs/kernel';
import { DLOCAL, dlocalCredentials } from './dlocal-account';
import { DLocalChargeback, DLocalClient, DLocalRequestError, verifyDLocalCallback, verifyDLocalSignature } from './dlocal.client';
import { DLocalGateway, ourRefundIdOf, outcomeOfRefund } from './dlocal.gateway';
import { DLocalRecords } from './persistence/dlocal-records.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How far a notification's `X-Date` may be from our clock (contract §27): a
 * signed notification captured on its way is worth replaying for no longer
 * than this. Past it, the notification is refused (401) and dLocal's retry,
 * or the daily reconciliation, brings the news instead.
 */
export const DLOCAL_NOTIFICATION_FRESHNESS_MS = 10 * 60_000;

/** Whether `X-Date` (ISO 8601, as dLocal sends it) is within the freshness window of `now`, either side. */
export function isFresh(xDate: string, now: number): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/.test(xDate)) return false;
  const at = Date.parse(xDate);
  return Number.isFinite(at) && Math.abs(now - at) <= DLOCAL_NOTIFICATION_FRESHNESS_MS;
}

/** What dLocal posts to the callback_url when the payer leaves its page. */
export interface DLocalReturn {
  readonly paymentId: string;
  readonly status: string;
  readonly date: string;
  readonly signature: string;
}

/**
 * dLocal's notifications and the payer's return (contract §20). A
 * notification is verified by recomputing its `Authorization` signature over
 * the account's X-Login, the notification's X-Date and the raw body with the
 * account's secret key; its body (a payment, a refund or a chargeback, told
 * apart by their fields, or a Pix Automático enrollment by its id) only names what changed: the service reads it from
 * dLocal itself before anything is decided. The event id is the payment and
 * its status: the same news twice changes nothing twice.
 */
@Injectable()
export class DLocalNotifications {
  private readonly logger = new Logger('dLocal');

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly gateway: DLocalGateway,
    private readonly records: DLocalRecords,
  ) {}

  async read(merchantId: string, headers: Record<string, string | string[] | undefined>, rawBody: Buffer): Promise<GatewayNotice> {
    const one = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const credentials = UUID.test(merchantId) ? await dlocalCredentials(this.accounts, merchantId.toLowerCase()) : null;
    const xDate = one('x-date') ?? '';
    const login = one('x-login');
    if (
      !credentials ||
      !isFresh(xDate, Date.now()) ||
      (login !== undefined && login !== credentials.xLogin) ||
      !verifyDLocalSignature(credentials.secretKey, credentials.xLogin, xDate, rawBody, one('authorization') ?? '')
    )
      throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { kind: 'IGNORED' };
      body = parsed as Record<string, unknown>;
    } catch {
      return { kind: 'IGNORED' };
    }
    const id = typeof body.id === 'string' && body.id.length > 0 && body.id.length <= 128 ? body.id : null;
    if (!id) return { kind: 'IGNORED' };
    const client = await this.gateway.clientOf(merchantId.toLowerCase());
    try {
      // A Pix Automático enrollment (contract §31), read from dLocal: news for the setup that asked for it (its external id).
      if (/^E-/.test(id)) {
        const enrollment = await client.getEnrollment(id);
        const setupId = enrollment.external_id ?? '';
        return UUID.test(setupId)
          ? { kind: 'PIX_AUTHORISATION', setupId: setupId.toLowerCase(), reference: enrollment.id }
          : { kind: 'UNKNOWN' };
      }
      if (typeof body.payment_id === 'string') {
        const ours = await this.records.refundByDLocalId(id);
        // A refund tells the amount refunded; a chargeback (sent to the merchant's chargeback URL) does not.
        if (ours || 'amount_refunded' in body) return await this.refundNotice(client, merchantId.toLowerCase(), id, body.payment_id);
        // A chargeback (contract §21): read from dLocal, as dLocal documents, and read into a dispute report of our payment.
        const chargeback = await client.getChargeback(id);
        const payment = chargeback.payment_id ? await this.records.paymentByDLocalId(chargeback.payment_id) : null;
        if (!payment || payment.merchantId !== merchantId.toLowerCase()) return { kind: 'UNKNOWN' };
        return disputeNotice(chargeback, payment.payinId);
      }
      return await this.gateway.newsOfPayment(client, merchantId.toLowerCase(), id);
    } catch (error) {
      // Not answered 2xx: dLocal sends the notification again later; reconciliation is the net under that.
      if (error instanceof DLocalRequestError && error.status === 404) return { kind: 'UNKNOWN' };
      if (error instanceof DomainError) throw error;
      this.logger.warn(`notification about ${id}: ${(error as Error).message}`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
  }

  /**
   * The payer's return from dLocal's page (a POST of the browser to our
   * callback_url): where to send them on, when the fields carry dLocal's
   * signature. Nothing is decided on the status it claims; the payment is
   * read from dLocal (best effort) and applied as a notification would be.
   */
  async returned(
    payinId: string,
    fields: DLocalReturn,
  ): Promise<{ merchantId: string; returnUrl: string | null; notice: GatewayNotice | null } | null> {
    const record = UUID.test(payinId) ? await this.records.paymentOfPayin(payinId.toLowerCase()) : null;
    if (!record) return null;
    const credentials = await dlocalCredentials(this.accounts, record.merchantId);
    if (!credentials || !verifyDLocalCallback(credentials.secretKey, credentials.xLogin, fields)) return null;
    if (record.paymentId && record.paymentId !== fields.paymentId) return null;
    let notice: GatewayNotice | null = null;
    try {
      notice = await this.gateway.newsOfPayment(await this.gateway.clientOf(record.merchantId), record.merchantId, fields.paymentId);
    } catch (error) {
      this.logger.warn(`return of ${payinId}: ${(error as Error).message}; the notification or reconciliation will tell`);
    }
    return { merchantId: record.merchantId, returnUrl: record.returnUrl, notice };
  }

  /** Where a payer who comes back to the return route by other means (a reload) goes. */
  async returnUrlOf(payinId: string): Promise<string | null | undefined> {
    const record = UUID.test(payinId) ? await this.records.paymentOfPayin(payinId.toLowerCase()) : null;
    return record ? record.returnUrl : undefined;
  }

  private async refundNotice(client: DLocalClient, merchantId: string, refundId: string, paymentId: string): Promise<GatewayNotice> {
    const refund = await client.getRefund(refundId);
    const ours = ourRefundIdOf(refund);
    const record = (await this.records.refundByDLocalId(refund.id)) ?? (ours ? await this.records.refund(ours) : null);
    // Not one of ours: made at dLocal itself (its dashboard). News of our payment it refunds, read from dLocal (contract §23).
    if (!record) return this.gateway.newsOfPayment(client, merchantId, refund.payment_id ?? paymentId);
    if (record.merchantId !== merchantId || (refund.payment_id !== undefined && refund.payment_id !== record.paymentId))
      return { kind: 'UNKNOWN' };
    await this.records.refundAnswered(record.refundId, refund.id);
    const status = outcomeOfRefund(refund.status);
    return {
      kind: 'REFUND',
      refundId: record.refundId,
      status,
      reference: refund.id,
      ...(status === 'REJECTED' ? { error: `dLocal answered the refund ${refund.status}` } : {}),
    };
  }
}

/**
 * dLocal's chargeback statuses as a dispute's (contract §21): PENDING and
 * COMPLETED wait on the merchant, DISPUTE_RECEIVED and IN_DISPUTE are under
 * review, DISPUTE_LOST is lost, REVERSAL (the dispute won) and CANCELLED
 * (the claim withdrawn) give the money back. INQUIRY is a request for
 * information, not a chargeback yet: nothing is opened for it.
 */
const CHARGEBACK_STATUSES: Readonly<Record<string, DisputeReport['status']>> = {
  PENDING: 'NEEDS_RESPONSE',
  COMPLETED: 'NEEDS_RESPONSE',
  DISPUTE_RECEIVED: 'UNDER_REVIEW',
  IN_DISPUTE: 'UNDER_REVIEW',
  DISPUTE_LOST: 'LOST',
  REVERSAL: 'WON',
  CANCELLED: 'WON',
};

/** A dLocal chargeback as a dispute report: dLocal names no reason and no due date (its dashboard shows them). */
export function disputeNotice(chargeback: DLocalChargeback, payinId: string): GatewayNotice {
  const status = CHARGEBACK_STATUSES[chargeback.status];
  const currency = chargeback.currency;
  if (!status || !currency || !isCurrency(currency)) return { kind: 'IGNORED' };
  // Read exactly (contract §28): a chargeback whose amount cannot be read fails its notification, and nothing is booked.
  const amount = processorMinor(DLOCAL, chargeback.amount, currency, `chargeback ${chargeback.id} amount`);
  if (amount <= 0) return { kind: 'IGNORED' };
  return {
    kind: 'DISPUTE',
    dispute: {
      reference: chargeback.id,
      chargeId: payinId,
      amount,
      currency,
      reason: 'GENERAL',
      status,
      evidenceDueBy: null,
    },
  };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface DLocalPaymentRecord {
  readonly payinId: string;
  readonly merchantId: string;
  readonly paymentId: string | null;
  readonly redirectUrl: string | null;
  readonly returnUrl: string | null;
  readonly expiresAt: Date;
  /** A scheduled payment's billing date (Pix Automático): pending until then, never a checkout nobody reached. */
  readonly scheduledDate?: string | null;
  /** A retry's: our order id of the payment it retries (dLocal's retry keeps that order id). */
  readonly retryOfOrder?: string | null;
}

export interface DLocalRefundRecord {
  readonly refundId: string;
  readonly merchantId: string;
  readonly paymentId: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  readonly dlocalRefundId: string | null;
  /** When the request left (null: never sent). */
  readonly sentAt: Date | null;
}

/**
 * Our side of what was sent to dLocal: each payment (by our order id, the
 * attempt's) and each refund, written before the request, so a lost answer
 * still leaves what was asked.
 */
@Injectable()
export class DLocalRecords {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async savePayment(record: Omit<DLocalPaymentRecord, 'paymentId' | 'redirectUrl'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO dlocal_payment (payin_id, merchant_id, return_url, expires_at, scheduled_date, retry_of_order, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (payin_id) DO NOTHING`,
      [record.payinId, record.merchantId, record.returnUrl, record.expiresAt, record.scheduledDate ?? null, record.retryOfOrder ?? null],
    );
  }

  async paymentAnswered(payinId: string, paymentId: string, redirectUrl: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE dlocal_payment SET payment_id = $2, redirect_url = coalesce($3, redirect_url) WHERE payin_id = $1`,
      [payinId, paymentId, redirectUrl],
    );
  }

  paymentOfPayin(payinId: string): Promise<DLocalPaymentRecord | null> {
    return this.payment('payin_id = $1', payinId);
  }

  paymentByDLocalId(paymentId: string): Promise<DLocalPaymentRecord | null> {
    return this.payment('payment_id = $1', paymentId);
  }

  /** Our retry of the payment with order id `orderId` whose answer never came (its payment id unknown), the latest. */
  unansweredRetryOf(orderId: string): Promise<DLocalPaymentRecord | null> {
    return this.payment('retry_of_order = $1 AND payment_id IS NULL ORDER BY created_at DESC LIMIT 1', orderId);
  }

  async saveRefund(record: Omit<DLocalRefundRecord, 'dlocalRefundId' | 'sentAt'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO dlocal_refund (refund_id, merchant_id, payment_id, amount, currency, created_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (refund_id) DO NOTHING`,
      [record.refundId, record.merchantId, record.paymentId, record.amount, record.currency],
    );
  }

  /**
   * Claims the sending of a refund, right before the request leaves: only
   * when none left within `leaseMs` (a send still in flight elsewhere holds
   * it). From then on a retry must find out whether dLocal took it first.
   */
  async claimSend(refundId: string, leaseMs: number): Promise<boolean> {
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(
      `WITH claimed AS (
         UPDATE dlocal_refund SET sent_at = now() WHERE refund_id = $1
            AND (sent_at IS NULL OR sent_at < now() - make_interval(secs => $2::double precision / 1000)) RETURNING 1)
       SELECT count(*)::int AS n FROM claimed`,
      [refundId, leaseMs],
    );
    return n === 1;
  }

  async refundAnswered(refundId: string, dlocalRefundId: string): Promise<void> {
    await this.dataSource.query(`UPDATE dlocal_refund SET dlocal_refund_id = $2 WHERE refund_id = $1 AND dlocal_refund_id IS NULL`, [
      refundId,
      dlocalRefundId,
    ]);
  }

  refund(refundId: string): Promise<DLocalRefundRecord | null> {
    return this.refundWhere('refund_id = $1', refundId);
  }

  refundByDLocalId(dlocalRefundId: string): Promise<DLocalRefundRecord | null> {
    return this.refundWhere('dlocal_refund_id = $1', dlocalRefundId);
  }

  /** dLocal's ids of the refunds of a payment already claimed by one of ours. */
  async claimedRefundIds(paymentId: string): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT dlocal_refund_id AS id FROM dlocal_refund WHERE payment_id = $1 AND dlocal_refund_id IS NOT NULL`,
      [paymentId],
    );
    return new Set(rows.map((row) => row.id));
  }

  private async payment(where: string, value: string): Promise<DLocalPaymentRecord | null> {
    const [row] = await this.dataSource.query<
      {
        payin_id: string;
        merchant_id: string;
        payment_id: string | null;
        redirect_url: string | null;
        return_url: string | null;
        expires_at: Date;
        scheduled_date: string | null;
        retry_of_order: string | null;
      }[]
    >(
      `SELECT payin_id, merchant_id, payment_id, redirect_url, return_url, expires_at, scheduled_date::text AS scheduled_date, retry_of_order
       FROM dlocal_payment WHERE ${where}`,
      [value],
    );
    return row
      ? {
          payinId: row.payin_id,
          merchantId: row.merchant_id,
          paymentId: row.payment_id,
          redirectUrl: row.redirect_url,
          returnUrl: row.return_url,
          expiresAt: row.expires_at,
          scheduledDate: row.scheduled_date,
          retryOfOrder: row.retry_of_order,
        }
      : null;
  }

  private async refundWhere(where: string, value: string): Promise<DLocalRefundRecord | null> {
    const [row] = await this.dataSource.query<
      {
        refund_id: string;
        merchant_id: string;
        payment_id: string;
        amount: string;
        currency: string;
        dlocal_refund_id: string | null;
        sent_at: Date | null;
      }[]
    >(`SELECT refund_id, merchant_id, payment_id, amount, currency, dlocal_refund_id, sent_at FROM dlocal_refund WHERE ${where}`, [value]);
    return row
      ? {
          refundId: row.refund_id,
          merchantId: row.merchant_id,
          paymentId: row.payment_id,
          amount: Number(row.amount),
          currency: row.currency,
          dlocalRefundId: row.dlocal_refund_id,
          sentAt: row.sent_at,
        }
      : null;
  }
}

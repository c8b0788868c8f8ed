import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface CheckoutRecord {
  readonly payinId: string;
  readonly merchantId: string;
  readonly preferenceId: string;
  readonly initPoint: string;
  readonly returnUrl: string | null;
  readonly expiresAt: Date;
}

export interface RefundRecord {
  readonly refundId: string;
  readonly merchantId: string;
  readonly paymentId: number;
  /** The decimal amount refunded, as sent. */
  readonly amount: number;
  readonly mpRefundId: number | null;
}

/** Our side of what was sent to Mercado Pago: each preference and each refund. */
@Injectable()
export class MercadoPagoRecords {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A retry of the same attempt (same payin, same idempotent preference) writes the same row again. */
  async saveCheckout(record: CheckoutRecord): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO mercado_pago_checkout (payin_id, merchant_id, preference_id, init_point, return_url, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (payin_id) DO UPDATE SET preference_id = EXCLUDED.preference_id, init_point = EXCLUDED.init_point,
         return_url = EXCLUDED.return_url, expires_at = EXCLUDED.expires_at`,
      [record.payinId, record.merchantId, record.preferenceId, record.initPoint, record.returnUrl, record.expiresAt],
    );
  }

  async checkoutByPreference(preferenceId: string): Promise<CheckoutRecord | null> {
    return this.checkout(`preference_id = $1`, preferenceId);
  }

  async checkoutOfPayin(payinId: string): Promise<CheckoutRecord | null> {
    return this.checkout(`payin_id = $1`, payinId);
  }

  async saveRefund(record: Omit<RefundRecord, 'mpRefundId'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO mercado_pago_refund (refund_id, merchant_id, payment_id, amount, created_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (refund_id) DO NOTHING`,
      [record.refundId, record.merchantId, record.paymentId, record.amount],
    );
  }

  async refundAnswered(refundId: string, mpRefundId: number): Promise<void> {
    await this.dataSource.query(`UPDATE mercado_pago_refund SET mp_refund_id = $2 WHERE refund_id = $1`, [refundId, mpRefundId]);
  }

  async refund(refundId: string): Promise<RefundRecord | null> {
    const [row] = await this.dataSource.query<
      { refund_id: string; merchant_id: string; payment_id: string; amount: string; mp_refund_id: string | null }[]
    >(`SELECT * FROM mercado_pago_refund WHERE refund_id = $1`, [refundId]);
    return row
      ? {
          refundId: row.refund_id,
          merchantId: row.merchant_id,
          paymentId: Number(row.payment_id),
          amount: Number(row.amount),
          mpRefundId: row.mp_refund_id === null ? null : Number(row.mp_refund_id),
        }
      : null;
  }

  /** Mercado Pago's refund ids already answered for our other refunds of a payment. */
  async knownRefundIds(paymentId: number): Promise<Set<number>> {
    const rows = await this.dataSource.query<{ mp_refund_id: string }[]>(
      `SELECT mp_refund_id FROM mercado_pago_refund WHERE payment_id = $1 AND mp_refund_id IS NOT NULL`,
      [paymentId],
    );
    return new Set(rows.map((row) => Number(row.mp_refund_id)));
  }

  private async checkout(where: string, value: string): Promise<CheckoutRecord | null> {
    const [row] = await this.dataSource.query<
      { payin_id: string; merchant_id: string; preference_id: string; init_point: string; return_url: string | null; expires_at: Date }[]
    >(`SELECT payin_id, merchant_id, preference_id, init_point, return_url, expires_at FROM mercado_pago_checkout WHERE ${where}`, [value]);
    return row
      ? {
          payinId: row.payin_id,
          merchantId: row.merchant_id,
          preferenceId: row.preference_id,
          initPoint: row.init_point,
          returnUrl: row.return_url,
          expiresAt: row.expires_at,
        }
      : null;
  }
}

/*
 * Long on purpose: dLocal's Pix Automático (its "One-time user enrollment", "Create enrollment", "Recurring payments"
 * and "Payment retries" pages, and Banco Central do Brasil's scheduling rule they cite), read against one documentation.
 */
import * as crypto from 'node:crypto';

/**
 * Pix Automático at dLocal, as its documentation describes it, for the stand-in:
 *
 * - `POST /enrollments` `{ external_id, currency: BRL, country: BR, type: MERCHANT_SUBSCRIPTION | ON_DEMAND,
 *   description? (≤ 200), payment_method_id: XA, payment_method_flow: REDIRECT | DIRECT, payer: { name, document,
 *   email? }, subscription: { start_date, end_date?, frequency, amount: { type: FIXED, value } } (required for
 *   MERCHANT_SUBSCRIPTION), notification_url? (≤ 500), callback_url? (REDIRECT, ≤ 500) }` answers the enrollment
 *   PENDING (status_code 100) with a `redirect_url` (REDIRECT: dLocal's page, where the payer authorises in the bank's
 *   app) or a `ticket` (DIRECT: the QR code); the payer's decision makes it ACTIVE (200) or REJECTED (300), notified to
 *   its notification_url; `GET /enrollments/:id` reads it. Where the documentation shows one value of an enumeration
 *   only (frequency: ANNUAL), the others are Pix Automático's periodicities (WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL).
 * - A recurring payment is `POST /payments` `{ amount, currency, country, payment_method_id: XA, payment_method_flow:
 *   DIRECT, payer, enrollment: { id }, scheduled_date, order_id, notification_url }`, answered PENDING: the request
 *   goes 2 to 10 days before the billing date (Banco Central's rule), for an ACTIVE enrollment, its fixed amount, one
 *   payment per period of the enrollment's frequency, from its start date on.
 * - On the scheduled date the payer's bank pays it (PAID, 200) or does not (REJECTED, 302 "Insufficient amount").
 * - `POST /payments/:id/retries` `{ notification_url }` retries a payment whose attempt failed: a new payment, PENDING,
 *   with `retry: { remaining_attempts, last_attemptable_date }` (3 retries, within 7 days of the billing date, one a
 *   day), attempted the next day: PAID, or its attempt failed (PENDING, "The payment is pending, attempt failed"),
 *   REJECTED 305 "Max attempts reached" when it was the last.
 * - "Today" is the stand-in's date in Brasília (`today`), which a test moves with `advanceTo`: payments due are
 *   attempted then. What the payer's account holds is the test's to say (`answers`: a queue per enrollment of the
 *   attempts' results, paid when empty).
 */

type Answer = [number, unknown];

const FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
type Frequency = (typeof FREQUENCIES)[number];

/** How many months (or, WEEKLY, weeks) a period of a frequency is. */
const MONTHS: Record<Frequency, number> = { WEEKLY: 0, MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 };

const ENROLLMENT_STATUS = {
  PENDING: ['100', 'The enrollment is pending.'],
  ACTIVE: ['200', 'The enrollment is active.'],
  REJECTED: ['300', 'The enrollment is rejected.'],
  CANCELLED: ['400', 'The enrollment was cancelled by the merchant.'],
} as const;

/** Cancelled by the payer in the bank's app (its own status code, 401). */
const CANCELLED_BY_PAYER = ['401', 'The enrollment was cancelled by the user directly through their home banking.'] as const;

export interface DLocalStandInEnrollment {
  readonly id: string;
  readonly login: string;
  readonly external_id: string;
  readonly currency: string;
  readonly country: string;
  readonly type: string;
  readonly description?: string;
  readonly payment_method_id: 'XA';
  readonly payment_method_flow: 'REDIRECT' | 'DIRECT';
  readonly payer: { name: string; document: string; email?: string };
  readonly subscription: { start_date: string; end_date?: string; frequency: Frequency; amount: { type: 'FIXED'; value: number } };
  readonly notification_url?: string;
  readonly callback_url?: string;
  readonly created_date: string;
  approved_date?: string;
  status: keyof typeof ENROLLMENT_STATUS;
  status_code: string;
  status_detail: string;
  /** What the payer's account answers its next attempts (the test's): PAID, or INSUFFICIENT (a failed attempt). */
  readonly answers: ('PAID' | 'INSUFFICIENT')[];
}

/** A Pix Automático payment as the stand-in keeps it (its shown fields are the stand-in's payment's). */
export interface PixPayment {
  id: string;
  amount: number;
  currency: string;
  country: string;
  payment_method_id: string;
  payment_method_type: string;
  payment_method_flow: 'REDIRECT' | 'DIRECT';
  payer: { name: string; email: string; document: string };
  order_id: string;
  description?: string;
  notification_url?: string;
  created_date: string;
  approved_date?: string;
  status: 'PENDING' | 'PAID' | 'REJECTED';
  status_code: string;
  status_detail: string;
  refunds: never[];
  enrollment: { id: string; external_id: string };
  scheduled_date: string;
  retry?: { remaining_attempts: number; last_attemptable_date: string };
  readonly login: string;
}

interface Chain {
  /** The billing date (the first payment's scheduled date). */
  readonly billingDate: string;
  retriesLeft: number;
  lastRetryOn: string | null;
}

const invalid = (param: string): Answer => [400, { code: 5001, message: `Invalid parameter: ${param}`, param }];

/** A date's day count (days since 1970-01-01), of a YYYY-MM-DD. */
const dayOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const dateOf = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
const isDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && dateOf(dayOf(value)) === value;

/** Today in Brasília (UTC−3, no daylight saving since 2019). */
export function brasiliaDate(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

export class DLocalPixAutomatico {
  readonly enrollments = new Map<string, DLocalStandInEnrollment>();
  private readonly chains = new Map<string, Chain>();
  /** Payments waiting for their attempt: the day it is made. */
  private readonly due = new Map<string, string>();
  /** The stand-in's date (YYYY-MM-DD, Brasília): requests are judged against it, payments are attempted when it comes. */
  today = brasiliaDate(new Date());

  constructor(
    private readonly baseUrl: () => string,
    private readonly payments: Map<string, unknown>,
    private readonly documentOk: (document: string) => boolean,
    private readonly notifyPayment: (payment: PixPayment) => Promise<void>,
    private readonly notifyEnrollment: (enrollment: DLocalStandInEnrollment) => Promise<void>,
  ) {}

  /** `POST /enrollments`. */
  createEnrollment(login: string, body: Record<string, unknown>): Answer {
    const text = (value: unknown, max: number) => typeof value === 'string' && value.trim().length > 0 && value.length <= max;
    if (!text(body.external_id, 100)) return invalid('external_id');
    if (body.country !== 'BR') return invalid('country');
    if (body.currency !== 'BRL') return invalid('currency');
    if (body.type !== 'MERCHANT_SUBSCRIPTION' && body.type !== 'ON_DEMAND') return invalid('type');
    if (body.description !== undefined && !text(body.description, 200)) return invalid('description');
    if (body.payment_method_id !== 'XA') return invalid('payment_method_id');
    if (body.payment_method_flow !== 'REDIRECT' && body.payment_method_flow !== 'DIRECT') return invalid('payment_method_flow');
    const payer = body.payer as Record<string, unknown> | undefined;
    if (typeof payer !== 'object' || payer === null || Array.isArray(payer)) return invalid('payer');
    if (!text(payer.name, 100)) return invalid('payer.name');
    if (typeof payer.document !== 'string' || !this.documentOk(payer.document)) return invalid('payer.document');
    if (payer.email !== undefined && !(typeof payer.email === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(payer.email)))
      return invalid('payer.email');
    // Pix Automático's enrollment is a subscription's (its periodicity and amount); ON_DEMAND is not for XA here.
    if (body.type !== 'MERCHANT_SUBSCRIPTION') return invalid('type');
    const subscription = body.subscription as Record<string, unknown> | undefined;
    if (typeof subscription !== 'object' || subscription === null || Array.isArray(subscription)) return invalid('subscription');
    if (!isDate(subscription.start_date) || dayOf(subscription.start_date) < dayOf(this.today)) return invalid('subscription.start_date');
    if (subscription.end_date !== undefined && !(isDate(subscription.end_date) && subscription.end_date > subscription.start_date))
      return invalid('subscription.end_date');
    if (!FREQUENCIES.includes(subscription.frequency as Frequency)) return invalid('subscription.frequency');
    const amount = subscription.amount as Record<string, unknown> | undefined;
    if (amount?.type !== 'FIXED') return invalid('subscription.amount.type');
    if (typeof amount.value !== 'number' || !(amount.value > 0) || Math.round(amount.value * 100) !== amount.value * 100)
      return invalid('subscription.amount.value');
    for (const url of ['notification_url', 'callback_url'] as const)
      if (body[url] !== undefined && !(text(body[url], 500) && /^https?:\/\//.test(body[url] as string))) return invalid(url);
    if (body.payment_method_flow === 'REDIRECT' && body.callback_url === undefined) return invalid('callback_url');
    const enrollment: DLocalStandInEnrollment = {
      id: `E-4-${crypto.randomUUID()}`,
      login,
      external_id: body.external_id as string,
      currency: 'BRL',
      country: 'BR',
      type: 'MERCHANT_SUBSCRIPTION',
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      payment_method_id: 'XA',
      payment_method_flow: body.payment_method_flow,
      payer: {
        name: payer.name as string,
        document: payer.document,
        ...(typeof payer.email === 'string' ? { email: payer.email } : {}),
      },
      subscription: {
        start_date: subscription.start_date,
        ...(typeof subscription.end_date === 'string' ? { end_date: subscription.end_date } : {}),
        frequency: subscription.frequency as Frequency,
        amount: { type: 'FIXED', value: amount.value },
      },
      ...(typeof body.notification_url === 'string' ? { notification_url: body.notification_url } : {}),
      ...(typeof body.callback_url === 'string' ? { callback_url: body.callback_url } : {}),
      created_date: new Date().toISOString(),
      status: 'PENDING',
      status_code: ENROLLMENT_STATUS.PENDING[0],
      status_detail: ENROLLMENT_STATUS.PENDING[1],
      answers: [],
    };
    this.enrollments.set(enrollment.id, enrollment);
    return [200, this.view(enrollment)];
  }

  /** `GET /enrollments/:id`, for the account that made it. */
  readEnrollment(login: string, id: string): Answer {
    const enrollment = this.enrollments.get(id);
    if (!enrollment || enrollment.login !== login) return [404, { code: 4000, message: 'Enrollment not found.' }];
    return [200, this.view(enrollment)];
  }

  /** The payer's decision in the bank's app: the enrollment ACTIVE or REJECTED, notified; where the browser goes next. */
  async decide(id: string, authorised: boolean): Promise<string | null> {
    const enrollment = this.enrollments.get(id);
    if (!enrollment || enrollment.status !== 'PENDING') return null;
    enrollment.status = authorised ? 'ACTIVE' : 'REJECTED';
    [enrollment.status_code, enrollment.status_detail] = ENROLLMENT_STATUS[enrollment.status];
    if (authorised) enrollment.approved_date = new Date().toISOString();
    await this.notifyEnrollment(enrollment);
    return enrollment.callback_url ?? null;
  }

  /** The payer cancels an active authorisation in the bank's app: CANCELLED (401), notified; its payments are refused. */
  async cancelByPayer(id: string): Promise<void> {
    const enrollment = this.enrollments.get(id);
    if (!enrollment || enrollment.status !== 'ACTIVE') return;
    enrollment.status = 'CANCELLED';
    [enrollment.status_code, enrollment.status_detail] = CANCELLED_BY_PAYER;
    await this.notifyEnrollment(enrollment);
  }

  /** `POST /payments` with payment_method_id XA: a recurring payment of an active enrollment, scheduled. */
  charge(login: string, body: Record<string, unknown>, orderTaken: (orderId: string) => boolean): Answer {
    if (body.payment_method_flow !== 'DIRECT') return invalid('payment_method_flow');
    if (body.country !== 'BR') return invalid('country');
    if (body.currency !== 'BRL') return invalid('currency');
    const enrollment = this.enrollments.get(String((body.enrollment as Record<string, unknown> | undefined)?.id));
    if (!enrollment || enrollment.login !== login || enrollment.status !== 'ACTIVE') return invalid('enrollment.id');
    if (body.amount !== enrollment.subscription.amount.value) return invalid('amount');
    const payer = body.payer as Record<string, unknown> | undefined;
    if (typeof payer?.name !== 'string' || !payer.name.trim()) return invalid('payer.name');
    if (typeof payer.document !== 'string' || payer.document !== enrollment.payer.document) return invalid('payer.document');
    if (typeof body.order_id !== 'string' || !body.order_id || body.order_id.length > 125) return invalid('order_id');
    if (orderTaken(body.order_id)) return [400, { code: 5009, message: 'Order id is duplicated.' }];
    if (body.notification_url !== undefined && !(typeof body.notification_url === 'string' && /^https?:\/\//.test(body.notification_url)))
      return invalid('notification_url');
    // Banco Central: the request goes 2 to 10 days before the billing date, from the enrollment's start on.
    const scheduled = body.scheduled_date;
    if (!isDate(scheduled)) return invalid('scheduled_date');
    const ahead = dayOf(scheduled) - dayOf(this.today);
    if (ahead < 2 || ahead > 10 || scheduled < enrollment.subscription.start_date) return invalid('scheduled_date');
    if (enrollment.subscription.end_date && scheduled > enrollment.subscription.end_date) return invalid('scheduled_date');
    // One payment per period of the enrollment's frequency.
    const period = this.periodOf(enrollment, scheduled);
    const taken = [...this.chains.entries()].some(
      ([first, chain]) =>
        (this.payments.get(first) as PixPayment | undefined)?.enrollment.id === enrollment.id &&
        this.periodOf(enrollment, chain.billingDate) === period,
    );
    if (taken) return invalid('scheduled_date');
    const payment = this.payment(enrollment, {
      amount: body.amount,
      order_id: body.order_id,
      scheduled_date: scheduled,
      notification_url: body.notification_url,
      description: typeof body.description === 'string' ? body.description : undefined,
      email: typeof payer.email === 'string' ? payer.email : (enrollment.payer.email ?? ''),
    });
    this.chains.set(payment.id, { billingDate: scheduled, retriesLeft: 3, lastRetryOn: null });
    this.due.set(payment.id, scheduled);
    return [200, this.paymentView(payment)];
  }

  /** `POST /payments/:id/retries`: a new attempt of a payment whose attempt failed, made the next day. */
  retry(login: string, paymentId: string, body: Record<string, unknown>): Answer {
    const failed = this.payments.get(paymentId) as PixPayment | undefined;
    if (!failed || failed.login !== login || failed.payment_method_id !== 'XA') return [404, { code: 4000, message: 'Payment not found.' }];
    if (body.notification_url !== undefined && !(typeof body.notification_url === 'string' && /^https?:\/\//.test(body.notification_url)))
      return invalid('notification_url');
    const chain = this.chainOf(failed);
    const attemptFailed = failed.status === 'REJECTED' || (failed.status === 'PENDING' && / attempt failed/.test(failed.status_detail));
    if (!chain || !attemptFailed || failed.status_code === '305' || this.due.has(failed.id))
      return [400, { code: 5002, message: 'Invalid transaction status.' }];
    const lastDay = dayOf(chain.billingDate) + 6;
    if (chain.retriesLeft === 0 || dayOf(this.today) > lastDay || chain.lastRetryOn === this.today)
      return [400, { code: 5013, message: 'Unsupported operation.' }];
    chain.retriesLeft -= 1;
    chain.lastRetryOn = this.today;
    const enrollment = this.enrollments.get(failed.enrollment.id)!;
    const payment = this.payment(enrollment, {
      amount: failed.amount,
      order_id: failed.order_id,
      scheduled_date: failed.scheduled_date,
      notification_url: body.notification_url ?? failed.notification_url,
      description: failed.description,
      email: failed.payer.email,
    });
    // 23:59 in Brasília of the seventh day from the billing date.
    payment.retry = {
      remaining_attempts: chain.retriesLeft,
      last_attemptable_date: `${dateOf(lastDay + 1)}T02:59:00.000+0000`,
    };
    this.retryChains.set(payment.id, chain);
    this.due.set(payment.id, dateOf(dayOf(this.today) + 1));
    return [200, this.paymentView(payment)];
  }

  private readonly retryChains = new Map<string, Chain>();

  /** Moves the stand-in's date to `date` (never back), making every attempt due by then, each notified. */
  async advanceTo(date: string): Promise<void> {
    if (date > this.today) this.today = date;
    const due = [...this.due.entries()].filter(([, on]) => on <= this.today).sort((a, b) => a[1].localeCompare(b[1]));
    for (const [id] of due) {
      this.due.delete(id);
      const payment = this.payments.get(id) as PixPayment;
      const enrollment = this.enrollments.get(payment.enrollment.id)!;
      const paid = (enrollment.answers.shift() ?? 'PAID') === 'PAID';
      const retry = this.retryChains.get(id);
      if (paid) {
        payment.status = 'PAID';
        [payment.status_code, payment.status_detail] = ['200', 'The payment was paid.'];
        payment.approved_date = new Date().toISOString();
      } else if (!retry) {
        payment.status = 'REJECTED';
        [payment.status_code, payment.status_detail] = ['302', 'Insufficient amount.'];
      } else if (retry.retriesLeft > 0) {
        [payment.status_code, payment.status_detail] = ['100', 'The payment is pending, attempt failed.'];
      } else {
        payment.status = 'REJECTED';
        [payment.status_code, payment.status_detail] = ['305', 'Max attempts reached.'];
      }
      await this.notifyPayment(payment);
    }
  }

  /** The hosted journey (REDIRECT): the QR code of the authorisation, and the payer's decision in the bank's app. */
  page(id: string): string | null {
    const enrollment = this.enrollments.get(id);
    if (!enrollment) return null;
    const s = enrollment.subscription;
    return `<!doctype html>
<html lang="pt"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>dLocal · Pix Automático (stand-in)</title></head>
<body style="font-family:sans-serif;max-width:420px;margin:1rem auto;padding:0 1rem">
<h1>Pix Automático</h1><p id="terms">BRL ${s.amount.value.toFixed(2)} · ${s.frequency} · ${s.start_date}</p>
<p id="qr">Pix copia e cola: <code>00020126580014br.gov.bcb.pix.rec.${enrollment.id.slice(4, 12)}</code></p>
<form method="post"><button name="decision" value="authorise" class="authorise">Autorizar no app do banco</button>
<button name="decision" value="refuse" class="refuse">Recusar</button></form></body></html>`;
  }

  /** Where the journey's page is, for an enrollment. */
  redirectUrl(id: string): string {
    return `${this.baseUrl()}/pix-automatico/authorize/${encodeURIComponent(id)}`;
  }

  private payment(
    enrollment: DLocalStandInEnrollment,
    fields: {
      amount: number;
      order_id: string;
      scheduled_date: string;
      notification_url?: string;
      description?: string;
      email: string;
    },
  ): PixPayment {
    const payment: PixPayment = {
      id: `D-4-${crypto.randomUUID()}`,
      amount: fields.amount,
      currency: 'BRL',
      country: 'BR',
      payment_method_id: 'XA',
      payment_method_type: 'TICKET',
      payment_method_flow: 'DIRECT',
      payer: { name: enrollment.payer.name, email: fields.email, document: enrollment.payer.document },
      order_id: fields.order_id,
      ...(fields.description ? { description: fields.description } : {}),
      ...(fields.notification_url ? { notification_url: fields.notification_url } : {}),
      created_date: new Date().toISOString(),
      status: 'PENDING',
      status_code: '100',
      status_detail: 'The payment is pending.',
      refunds: [],
      enrollment: { id: enrollment.id, external_id: enrollment.external_id },
      scheduled_date: fields.scheduled_date,
      login: enrollment.login,
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  private chainOf(payment: PixPayment): Chain | undefined {
    return this.chains.get(payment.id) ?? this.retryChains.get(payment.id);
  }

  /** The period of the enrollment's frequency a billing date falls in (weeks from its start; else months). */
  private periodOf(enrollment: DLocalStandInEnrollment, date: string): number {
    const start = enrollment.subscription.start_date;
    const months = MONTHS[enrollment.subscription.frequency];
    if (months === 0) return Math.floor((dayOf(date) - dayOf(start)) / 7);
    const monthIndex = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)) - 1;
    return Math.floor((monthIndex(date) - monthIndex(start)) / months);
  }

  private paymentView(payment: PixPayment): Record<string, unknown> {
    const { login: _login, ...shown } = payment;
    return shown;
  }

  view(enrollment: DLocalStandInEnrollment): Record<string, unknown> {
    const { login: _login, answers: _answers, ...shown } = enrollment;
    return {
      ...shown,
      payment_method_type: 'TICKET',
      ...(enrollment.status === 'PENDING'
        ? enrollment.payment_method_flow === 'REDIRECT'
          ? { redirect_url: this.redirectUrl(enrollment.id) }
          : { ticket: { qr_code: `00020126580014br.gov.bcb.pix.rec.${enrollment.id.slice(4, 12)}` } }
        : {}),
    };
  }
}

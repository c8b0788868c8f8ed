import { can, DashboardUser } from '@pcs/dashboard-identity';
import { disputeHoldsAmount, minorOfWire, wireAmount } from '@pcs/kernel';
import { PageLanguage } from '@pcs/pages';
import type { EventWithDeliveries, Payin, PaymentIntent } from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, money, zoneNote } from './layout';
import { fill, labelOf, TEXTS } from './texts';

/**
 * What was collected, refunded and taken back by disputes, and what a refund may still ask for,
 * in minor units, as the payment intent says them (contract §28: `refundableAmount` is the API's,
 * never arithmetic of the dashboard's own).
 */
export function balanceOf(intent: PaymentIntent): { collected: number; refunded: number; disputed: number; refundable: number } {
  const minor = (amount: number) => minorOfWire(amount, intent.currency);
  const disputed = intent.disputes.filter((d) => disputeHoldsAmount(d.status)).reduce((sum, d) => sum + minor(d.amount), 0);
  return {
    collected: minor(intent.receivedAmount),
    refunded: minor(intent.refundedAmount),
    disputed,
    refundable: minor(intent.refundableAmount),
  };
}

export function paymentPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    intent: PaymentIntent;
    rows: Payin[];
    timeline: EventWithDeliveries[];
    /** The merchant's (contract §24): dates of its money in its own time. */
    timeZone: string;
    notice?: string;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const { intent, rows, timeZone } = view;
  const balance = balanceOf(intent);
  const amount = (minor: number) => money(wireAmount(minor, intent.currency), intent.currency, language);
  const origins = { API: t.originApi, DASHBOARD: t.originDashboard, LINK: t.originLink, PROCESSOR: t.originProcessor } as const;
  const originOf = (row: Payin) => (row.origin ? origins[row.origin] : '—');
  const liquidationOf = (row: Payin) =>
    `${dateTime(row.liquidationDate, language, timeZone)}${row.liquidationSource === 'PROCESSOR' ? ` <small>(${t.liquidationByProcessor})</small>` : ''}`;
  const ledger = rows
    .map(
      (row) =>
        `<tr${row.origin === 'PROCESSOR' ? ' data-origin="PROCESSOR"' : ''} data-concept="${html(row.conceptCode)}"><td>${dateTime(row.createdAt, language, timeZone)}</td><td>${html(labelOf(language, 'concept', row.conceptCode))}</td><td data-field="origin">${html(originOf(row))}</td><td><span class="status ${html(row.status)}" data-status="${html(row.status)}">${html(labelOf(language, 'row', row.status))}</span></td><td class="num">${money(row.amount, row.currency, language)}</td><td class="num" data-field="fee">${money(row.feeAmount + row.feeTaxAmount, row.currency, language)}</td><td class="num" data-field="net">${money(row.netAmount, row.currency, language)}</td><td>${liquidationOf(row)}</td><td>${row.payoutRequestId ? `<a href="/payouts/${html(row.payoutRequestId)}">${html(row.payoutRequestId.slice(0, 8))}</a>` : '—'}</td><td>${html(row.externalId ?? '—')}</td></tr>`,
    )
    .join('');
  // Whose account collected it (contract §23): the approved collection's flow, or the latest attempt's until then.
  const charge =
    rows.find((r) => r.transactionType === 'PAYIN' && r.status === 'APPROVED') ?? rows.filter((r) => r.transactionType === 'PAYIN').at(-1);
  const flow = charge
    ? `<dt>${t.fundsFlow}</dt><dd id="funds-flow" data-flow="${html(charge.fundsFlow)}">${charge.fundsFlow === 'PLATFORM' ? t.fundsFlowPlatform : t.fundsFlowMerchant}</dd>`
    : '';
  // The plan the payer paid in (contract §25): installments, what the payer paid in all, and the merchant's financing fee.
  const plan =
    charge && charge.installments > 1
      ? `<dt>${t.installments}</dt><dd id="installments" data-installments="${charge.installments}">${
          charge.installmentAmount !== null && charge.payerTotalAmount !== null
            ? fill(t.installmentsPaid, {
                count: String(charge.installments),
                installment: money(charge.installmentAmount, charge.currency, language),
                total: money(charge.payerTotalAmount, charge.currency, language),
              })
            : fill(t.installmentsCounted, { count: String(charge.installments) })
        }${
          charge.financingFeeAmount > 0
            ? ` · ${fill(t.financingFeePaid, { amount: money(charge.financingFeeAmount, charge.currency, language) })}`
            : ''
        }</dd>`
      : '';
  const events = view.timeline
    .map((event) => {
      const sent = event.deliveries ?? [];
      const deliveries = sent.length
        ? `<ul>${sent
            .map((d) => {
              const last = d.attempts[d.attempts.length - 1];
              const outcome = last ? `${t.attempt} ${d.attempts.length}: ${last.status ?? html(last.error ?? '—')}` : '—';
              return `<li><span class="status ${d.delivered ? 'succeeded' : 'failed'}">${d.delivered ? t.delivered : t.notDelivered}</span> ${html(d.url)} · ${outcome}</li>`;
            })
            .join('')}</ul>`
        : `<p>${t.noDeliveries}</p>`;
      const redeliver = can(view.user.role, 'manage-webhooks')
        ? `<form method="post" action="/payments/${html(intent.paymentIntentId)}/events/${html(event.id)}/redeliver">${csrfField(view.csrfToken)}<button class="button secondary" type="submit">${t.redeliver}</button></form>`
        : '';
      return `<li data-event="${html(event.type)}"><strong>${html(event.type)}</strong> · ${dateTime(event.createdAt, language, timeZone)}${deliveries}${redeliver}</li>`;
    })
    .join('');
  const disputes = intent.disputes.length
    ? `<section aria-labelledby="disputes-title"><h2 id="disputes-title">${t.disputes}</h2><ul id="disputes">${intent.disputes
        .map(
          (d) =>
            `<li><a href="/disputes/${html(d.disputeId)}">${t.dispute}</a> · ${money(d.amount, intent.currency, language)} · <span class="status ${html(d.status)}">${html(d.status)}</span></li>`,
        )
        .join('')}</ul></section>`
    : '';
  const timeline = `<section class="card" aria-labelledby="timeline-title"><h2 id="timeline-title" style="margin-top:0">${t.timeline}</h2>${
    events ? `<ol id="timeline">${events}</ol>` : `<p>${t.noEvents}</p>`
  }</section>`;
  const refundForm =
    can(view.user.role, 'refund') && balance.refundable > 0
      ? `<section class="card" aria-labelledby="refund-title"><h2 id="refund-title" style="margin-top:0">${t.refund}</h2>
<form method="post" action="/payments/${html(intent.paymentIntentId)}/refund">${csrfField(view.csrfToken)}
<p><label for="amount">${t.amount} (${html(intent.currency)})</label><input id="amount" name="amount" type="number" step="any" min="0" inputmode="decimal" aria-describedby="amount-hint"><small id="amount-hint">${t.refundAmountHint} · ${t.refundable}: ${amount(balance.refundable)}</small></p>
<fieldset style="border:0;padding:0"><legend><strong>${t.refundKind}</strong></legend>
<label style="font-weight:400"><input type="radio" name="kind" value="refund" checked style="width:auto"> ${t.refundAtGateway}</label>
<label style="font-weight:400"><input type="radio" name="kind" value="manual" style="width:auto"> ${t.manualRefund}</label></fieldset>
<div class="actions"><button class="button" type="submit" id="refund">${t.refund}</button></div></form></section>`
      : '';
  return dashboardPage({
    language,
    title: `${t.payment} ${intent.paymentIntentId}`,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<p><a href="/payments">← ${t.payments}</a></p>
<h1>${t.payment} <span class="status ${html(intent.paymentIntentStatus)}" id="state" data-status="${html(intent.paymentIntentStatus)}">${html(labelOf(language, 'intent', intent.paymentIntentStatus))}</span></h1>
${view.notice ? `<p class="notice" role="status" id="notice">${html(view.notice)}</p>` : ''}
${view.problem ? `<p class="notice error" role="alert" id="problem">${html(view.problem)}</p>` : ''}
<section class="card" aria-labelledby="fields"><h2 id="fields" style="margin-top:0">${t.fields}</h2><dl>
<dt>ID</dt><dd>${html(intent.paymentIntentId)}</dd>
<dt>${t.total}</dt><dd>${money(intent.totalAmount, intent.currency, language)}</dd>
<dt>${t.collected}</dt><dd id="collected">${amount(balance.collected)}</dd>
<dt>${t.refunded}</dt><dd id="refunded">${amount(balance.refunded)}</dd>
${balance.disputed > 0 ? `<dt>${t.disputed}</dt><dd id="disputed">${amount(balance.disputed)}</dd>` : ''}
<dt>${t.refundable}</dt><dd id="refundable">${amount(balance.refundable)}</dd>
${flow}${plan}
<dt>${t.reference}</dt><dd>${html(intent.externalReference ?? '—')}</dd>
<dt>${t.description}</dt><dd>${html(intent.description ?? '—')}</dd>
<dt>${t.createdAt}</dt><dd>${dateTime(intent.createdAt, language, timeZone)}</dd>
</dl></section>
${zoneNote(language, timeZone)}
<section aria-labelledby="ledger"><h2 id="ledger">${t.ledger}</h2><div class="table"><table id="rows"><thead><tr><th>${t.date}</th><th>${t.type}</th><th>${t.origin}</th><th>${t.status}</th><th class="num">${t.amount}</th><th class="num">${t.feeWithTax}</th><th class="num">${t.net}</th><th>${t.liquidation}</th><th>${t.payout}</th><th>Gateway</th></tr></thead><tbody>${ledger}</tbody></table></div></section>
${disputes}
${timeline}
${refundForm}`,
  });
}

/** The confirmation step of a refund: what will be refunded, and the key that makes a double submit refund once. */
export function confirmRefundPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    intent: PaymentIntent;
    kind: 'refund' | 'manual';
    amountMinor: number;
    typedAmount: string;
    operation: string;
  },
): string {
  const t = TEXTS[language];
  const shown = money(wireAmount(view.amountMinor, view.intent.currency), view.intent.currency, language);
  const id = html(view.intent.paymentIntentId);
  return dashboardPage({
    language,
    title: t.confirmRefund,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<div class="card"><h1>${t.confirmRefund}</h1>
<p id="question">${html(fill(t.confirmQuestion, { amount: shown }))}</p>
<p>${view.kind === 'manual' ? t.manualRefund : t.refundAtGateway}</p>
<form method="post" action="/payments/${id}/refund">${csrfField(view.csrfToken)}
<input type="hidden" name="amount" value="${html(view.typedAmount)}">
<input type="hidden" name="kind" value="${view.kind}">
<input type="hidden" name="operation" value="${html(view.operation)}">
<input type="hidden" name="confirmed" value="yes">
<div class="actions"><button class="button danger" type="submit" id="confirm">${t.confirm}</button><a class="button secondary" href="/payments/${id}">${t.cancel}</a></div>
</form></div>`,
  });
}

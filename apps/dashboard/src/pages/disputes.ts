import { can, DashboardUser } from '@pcs/dashboard-identity';
import { DISPUTE_STATUSES } from '@pcs/kernel';
import { PageLanguage } from '@pcs/pages';
import type { Dispute, Merchant } from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, LOCALES, money, pageLinks } from './layout';
import { merchantFilter, select } from './payments';
import { fill, labelOf, TEXTS } from './texts';

/** The reasons of contract §21, as a person reads them. */
const REASONS: Record<PageLanguage, Record<Dispute['reason'], string>> = {
  es: {
    FRAUDULENT: 'El pagador no reconoce la compra',
    PRODUCT_NOT_RECEIVED: 'Producto no recibido',
    PRODUCT_UNACCEPTABLE: 'Producto no aceptable',
    DUPLICATE: 'Cobro duplicado',
    CREDIT_NOT_PROCESSED: 'Devolución no procesada',
    SUBSCRIPTION_CANCELED: 'Suscripción cancelada',
    GENERAL: 'Otro motivo',
  },
  pt: {
    FRAUDULENT: 'O pagador não reconhece a compra',
    PRODUCT_NOT_RECEIVED: 'Produto não recebido',
    PRODUCT_UNACCEPTABLE: 'Produto não aceitável',
    DUPLICATE: 'Cobrança duplicada',
    CREDIT_NOT_PROCESSED: 'Devolução não processada',
    SUBSCRIPTION_CANCELED: 'Assinatura cancelada',
    GENERAL: 'Outro motivo',
  },
  en: {
    FRAUDULENT: 'The payer does not recognise the purchase',
    PRODUCT_NOT_RECEIVED: 'Product not received',
    PRODUCT_UNACCEPTABLE: 'Product unacceptable',
    DUPLICATE: 'Duplicate charge',
    CREDIT_NOT_PROCESSED: 'Refund not processed',
    SUBSCRIPTION_CANCELED: 'Subscription canceled',
    GENERAL: 'Another reason',
  },
};

export function reasonOf(reason: Dispute['reason'], language: PageLanguage): string {
  return REASONS[language][reason] ?? reason;
}

/** Three days or less to answer: marked, so that nobody misses a due date. */
const DUE_SOON_MS = 3 * 86_400_000;

/** How urgent a dispute is: only one still waiting for the merchant's answer has a due date that matters. */
export function urgencyOf(dispute: Dispute, now = Date.now()): 'overdue' | 'due-soon' | null {
  if (dispute.status !== 'NEEDS_RESPONSE' || !dispute.evidenceDueBy) return null;
  const left = new Date(dispute.evidenceDueBy).getTime() - now;
  if (left < 0) return 'overdue';
  return left <= DUE_SOON_MS ? 'due-soon' : null;
}

function dueBy(dispute: Dispute, language: PageLanguage, timeZone: string): string {
  const t = TEXTS[language];
  const urgency = urgencyOf(dispute);
  const mark = urgency
    ? ` <span class="status ${urgency}" data-urgency="${urgency}">${urgency === 'overdue' ? t.overdue : t.dueSoon}</span>`
    : '';
  return `${dateTime(dispute.evidenceDueBy, language, timeZone)}${mark}`;
}

/** A merchant's disputes, the nearest due date first, with their status filter. */
export function disputesPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchants: Merchant[];
    merchantId: string;
    status?: string;
    rows: Dispute[];
    page: number;
    pageCount: number;
    timeZone?: string;
  },
): string {
  const t = TEXTS[language];
  const zone = view.timeZone ?? 'UTC';
  const query = (page: number) => `/disputes?merchantId=${view.merchantId}${view.status ? `&status=${view.status}` : ''}&page=${page}`;
  const rows = view.rows
    .map(
      (d) =>
        `<tr data-dispute="${html(d.disputeId)}"><td>${dueBy(d, language, zone)}</td><td><a href="/disputes/${html(d.disputeId)}">${html(reasonOf(d.reason, language))}</a></td><td class="num">${money(d.amount, d.currency, language)}</td><td><span class="status ${html(d.status)}" data-status="${html(d.status)}">${html(labelOf(language, 'dispute', d.status))}</span></td><td><a href="/payments/${html(d.paymentIntentId)}">${html(d.paymentIntentId.slice(0, 8))}</a></td><td>${dateTime(d.createdAt, language, zone)}</td></tr>`,
    )
    .join('');
  const pager = pageLinks(query, view.page, view.pageCount);
  const merchants = merchantFilter(t.merchant, view.user, view.merchants, view.merchantId);
  return dashboardPage({
    language,
    title: t.disputes,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.disputes}</h1>
<form method="get" action="/disputes" class="card"><div class="grid">${merchants}${select('status', t.status, view.status, [
      ['', t.any],
      ...DISPUTE_STATUSES.map((s): [string, string] => [s, labelOf(language, 'dispute', s)]),
    ])}</div><div class="actions"><button class="button" type="submit">${t.apply}</button></div></form>
${
  rows
    ? `<div class="table"><table id="disputes"><thead><tr><th>${t.evidenceDueBy}</th><th>${t.disputeReason}</th><th class="num">${t.amount}</th><th>${t.status}</th><th>${t.payment}</th><th>${t.createdAt}</th></tr></thead><tbody>${rows}</tbody></table></div>${pager}`
    : `<p id="disputes">${t.noDisputes}</p>`
}`,
  });
}

/** File sizes as a person reads them. */
function sizeOf(bytes: number, language: PageLanguage): string {
  const locale = LOCALES[language];
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toLocaleString(locale, { maximumFractionDigits: 0 })} kB`;
  return `${(bytes / 1_000_000).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
}

/**
 * One dispute: what the bank took back and why, its due date, its evidence;
 * for operators and admins while it waits for an answer, the upload form
 * (its key makes a double submit keep the files once), the submission and
 * the acceptance.
 */
export function disputePage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    dispute: Dispute;
    operation: string;
    timeZone?: string;
    notice?: string;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const d = view.dispute;
  const zone = view.timeZone ?? 'UTC';
  const id = html(d.disputeId);
  const answers = can(view.user.role, 'answer-disputes') && d.status === 'NEEDS_RESPONSE';
  const evidence = d.evidence.length
    ? `<div class="table"><table id="evidence"><thead><tr><th>${t.fileName}</th><th>${t.type}</th><th class="num">${t.size}</th><th>${t.date}</th></tr></thead><tbody>${d.evidence
        .map(
          (e) =>
            `<tr><td>${html(e.fileName)}</td><td>${html(e.contentType)}</td><td class="num">${sizeOf(e.size, language)}</td><td>${dateTime(e.uploadedAt, language, zone)}</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : `<p id="evidence">${t.noEvidence}</p>`;
  const forms = answers
    ? `<section class="card" aria-labelledby="upload-title"><h2 id="upload-title" style="margin-top:0">${t.uploadEvidence}</h2>
<form method="post" action="/disputes/${id}/evidence?_csrf=${encodeURIComponent(view.csrfToken ?? '')}" enctype="multipart/form-data">${csrfField(view.csrfToken)}
<input type="hidden" name="operation" value="${html(view.operation)}">
<p><label for="file">${t.evidence}</label><input id="file" name="file" type="file" multiple accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg" aria-describedby="file-hint"><small id="file-hint">${t.evidenceHint}</small></p>
<div class="actions"><button class="button" type="submit" id="upload">${t.addFiles}</button></div></form></section>
${
  d.evidence.length
    ? `<section class="card"><form method="post" action="/disputes/${id}/submit">${csrfField(view.csrfToken)}<p>${t.submitHint}</p><div class="actions"><button class="button" type="submit" id="submit">${t.submitEvidence}</button></div></form></section>`
    : ''
}
<section class="card"><form method="post" action="/disputes/${id}/accept">${csrfField(view.csrfToken)}<p>${t.acceptHint}</p><div class="actions"><button class="button danger" type="submit" id="accept">${t.acceptDispute}</button></div></form></section>`
    : '';
  return dashboardPage({
    language,
    title: `${t.dispute} ${d.disputeId}`,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<p><a href="/disputes?merchantId=${html(d.merchantId)}">← ${t.disputes}</a></p>
<h1>${t.dispute} <span class="status ${html(d.status)}" id="state" data-status="${html(d.status)}">${html(labelOf(language, 'dispute', d.status))}</span></h1>
${view.notice ? `<p class="notice" role="status" id="notice">${html(view.notice)}</p>` : ''}
${view.problem ? `<p class="notice error" role="alert" id="problem">${html(view.problem)}</p>` : ''}
<section class="card"><dl>
<dt>ID</dt><dd>${id}</dd>
<dt>${t.amount}</dt><dd id="amount">${money(d.amount, d.currency, language)}</dd>
<dt>${t.disputeReason}</dt><dd id="reason">${html(reasonOf(d.reason, language))}</dd>
<dt>${t.evidenceDueBy}</dt><dd id="due">${dueBy(d, language, zone)}</dd>
<dt>${t.payment}</dt><dd><a href="/payments/${html(d.paymentIntentId)}">${html(d.paymentIntentId)}</a></dd>
<dt>${t.processorCase}</dt><dd>${html(d.processor)} ${html(d.processorReference)}</dd>
<dt>${t.createdAt}</dt><dd>${dateTime(d.createdAt, language, zone)}</dd>
${d.closedAt ? `<dt>${t.closedAt}</dt><dd>${dateTime(d.closedAt, language, zone)}</dd>` : ''}
</dl></section>
<section aria-labelledby="evidence-title"><h2 id="evidence-title">${t.evidence}</h2>${evidence}</section>
${forms}`,
  });
}

/** The confirmation of an acceptance: it cannot be undone. */
export function confirmAcceptPage(language: PageLanguage, view: { user: DashboardUser; csrfToken: string; dispute: Dispute }): string {
  const t = TEXTS[language];
  const d = view.dispute;
  const id = html(d.disputeId);
  return dashboardPage({
    language,
    title: t.confirmAccept,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<div class="card"><h1>${t.confirmAccept}</h1>
<p id="question">${html(fill(t.confirmAcceptQuestion, { amount: money(d.amount, d.currency, language) }))}</p>
<form method="post" action="/disputes/${id}/accept">${csrfField(view.csrfToken)}
<input type="hidden" name="confirmed" value="yes">
<div class="actions"><button class="button danger" type="submit" id="confirm">${t.confirmAcceptButton}</button><a class="button secondary" href="/disputes/${id}">${t.cancel}</a></div>
</form></div>`,
  });
}

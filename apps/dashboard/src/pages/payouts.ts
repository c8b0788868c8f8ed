import { DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { BalanceTransaction, Merchant, Payout } from '../payins-api';
import { merchantPicker, movementsTable } from './balance';
import { dashboardPage, dateTime, html, money, pageLinks, zoneNote } from './layout';
import { labelOf, TEXTS } from './texts';

export const PAYOUT_STATUSES = ['PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED', 'RETURNED'] as const;

/** A payout's status, labelled in the page's language and kept as data for machines. */
function payoutStatus(language: PageLanguage, status: string, id?: string): string {
  return `<span class="status ${html(status)}"${id ? ` id="${id}"` : ''} data-status="${html(status)}">${html(labelOf(language, 'payout', status))}</span>`;
}

/** Payouts of a merchant, newest first (contract §19). */
export function payoutsPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchants: Merchant[];
    merchantId: string;
    rows: Payout[];
    page: number;
    pageCount: number;
    timeZone: string;
  },
): string {
  const t = TEXTS[language];
  const cell = (label: string, content: string, num = false) =>
    `<td${num ? ' class="num"' : ''} data-label="${html(label)}">${content}</td>`;
  const rows = view.rows
    .map(
      (p) =>
        `<tr>${cell(t.createdAt, `<a href="/payouts/${html(p.payoutId)}">${dateTime(p.createdAt, language, view.timeZone)}</a>`)}${cell(t.amount, money(p.amount, p.currency, language), true)}${cell(t.status, payoutStatus(language, p.status))}${cell(t.account, `${html(p.settlementBank.bankName ?? '—')} ${html(p.settlementBank.accountNumber)}`)}${cell(t.arrivalDate, html(p.arrivalDate ?? '—'))}${cell(t.swept, String(p.transactionCount), true)}</tr>`,
    )
    .join('');
  const pager = pageLinks((page) => `/payouts?merchantId=${view.merchantId}&page=${page}`, view.page, view.pageCount);
  return dashboardPage({
    language,
    title: t.payouts,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.payouts}</h1>
${merchantPicker(language, view.user, view.merchants, view.merchantId, '/payouts')}
${zoneNote(language, view.timeZone)}
${
  rows
    ? `<div class="table stack"><table id="payouts"><thead><tr><th>${t.createdAt}</th><th class="num">${t.amount}</th><th>${t.status}</th><th>${t.account}</th><th>${t.arrivalDate}</th><th class="num">${t.swept}</th></tr></thead><tbody>${rows}</tbody></table></div>${pager}`
    : `<p id="payouts">${t.noPayouts}</p>`
}
<p><a href="/balance?merchantId=${html(view.merchantId)}">${t.balance}</a></p>`,
  });
}

/** One payout: its fields, the movements it swept, and their CSV. */
export function payoutPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    payout: Payout;
    swept: BalanceTransaction[];
    total: number;
    timeZone: string;
    notice?: string;
  },
): string {
  const t = TEXTS[language];
  const p = view.payout;
  return dashboardPage({
    language,
    title: `${t.payout} ${p.payoutId}`,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<p><a href="/payouts?merchantId=${html(p.merchantId)}">← ${t.payouts}</a></p>
<h1>${t.payout} ${payoutStatus(language, p.status, 'state')}</h1>
${zoneNote(language, view.timeZone)}
${view.notice ? `<p class="notice" role="status" id="notice">${html(view.notice)}</p>` : ''}
<section class="card"><dl>
<dt>ID</dt><dd>${html(p.payoutId)}</dd>
<dt>${t.amount}</dt><dd id="amount">${money(p.amount, p.currency, language)}</dd>
<dt>${t.bank}</dt><dd>${html(p.settlementBank.bankName ?? p.settlementBank.bankId)}</dd>
<dt>${t.account}</dt><dd>${html(p.settlementBank.accountNumber)} (${html(p.settlementBank.accountType)})</dd>
<dt>${t.arrivalDate}</dt><dd>${html(p.arrivalDate ?? '—')}</dd>
<dt>${t.bankReference}</dt><dd>${html(p.bankReference ?? '—')}</dd>
${p.failureReason ? `<dt>${t.failureReason}</dt><dd>${html(p.failureReason)}</dd>` : ''}
<dt>${t.createdAt}</dt><dd>${dateTime(p.createdAt, language, view.timeZone)}</dd>
<dt>${t.swept}</dt><dd>${p.transactionCount}</dd>
</dl></section>
<section aria-labelledby="swept-title"><h2 id="swept-title">${t.swept}</h2>
<p><a class="button secondary" id="csv" href="/payouts/${html(p.payoutId)}/transactions.csv">${t.downloadCsv}</a></p>
${movementsTable(language, view.swept, 'swept', view.timeZone)}</section>`,
  });
}

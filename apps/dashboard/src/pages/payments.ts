import type { DashboardUser } from '@pcs/dashboard-identity';
import { CURRENCIES, TransactionStatus } from '@pcs/kernel';
import { PageLanguage } from '@pcs/pages';
import type { Merchant, Payin } from '../payins-api';
import { dashboardPage, dateTime, html, money, zoneNote } from './layout';
import { fill, labelOf, TEXTS } from './texts';

/** The filters of operation 36 as the form holds them (strings, as typed). */
export interface FilterForm {
  status?: string;
  currency?: string;
  minAmount?: string;
  maxAmount?: string;
  dateFrom?: string;
  dateUntil?: string;
  merchantId?: string;
  sort?: string;
  order?: string;
}

/** A list's merchant filter: a choice for a business-wide person of several merchants, the one merchant otherwise. */
export function merchantFilter(label: string, user: DashboardUser, merchants: readonly Merchant[], merchantId: string): string {
  return user.merchantId || merchants.length < 2
    ? `<input type="hidden" name="merchantId" value="${html(merchantId)}">`
    : select(
        'merchantId',
        label,
        merchantId,
        merchants.map((m): [string, string] => [m.merchantId, m.merchantName]),
      );
}

export function select(name: string, label: string, value: string | undefined, options: [string, string][]): string {
  return `<p><label for="${name}">${label}</label><select id="${name}" name="${name}">${options
    .map(([v, text]) => `<option value="${html(v)}"${v === (value ?? '') ? ' selected' : ''}>${html(text)}</option>`)
    .join('')}</select></p>`;
}

function input(name: string, label: string, value: string | undefined, type: string): string {
  return `<p><label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}"${type === 'number' ? ' step="any" min="0" inputmode="decimal"' : ''} value="${html(value ?? '')}"></p>`;
}

export function paymentsPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    filters: FilterForm;
    merchants: Merchant[];
    rows: Payin[];
    /** Each row's merchant's time zone (contract §24): a merchant's money in its own time. */
    zones: Record<string, string>;
    total: number;
    page: number;
    pageCount: number;
    limit: number;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const f = view.filters;
  const query = (page: number) =>
    '?' + new URLSearchParams({ ...Object.fromEntries(Object.entries(f).filter(([, v]) => v)), page: String(page) }).toString();
  const merchantOptions: [string, string][] = [
    ['', t.allMerchants],
    ...view.merchants.map((m): [string, string] => [m.merchantId, m.merchantName]),
  ];
  const form = `<form method="get" action="/payments" class="card" aria-labelledby="filters">
<h2 id="filters" style="margin-top:0">${t.filters}</h2>
<div class="grid">
${select('status', t.status, f.status, [['', t.any], ...Object.values(TransactionStatus).map((s): [string, string] => [s, labelOf(language, 'row', s)])])}
${select('currency', t.currency, f.currency, [['', t.any], ...CURRENCIES.map((c): [string, string] => [c, c])])}
${input('minAmount', t.minAmount, f.minAmount, 'number')}
${input('maxAmount', t.maxAmount, f.maxAmount, 'number')}
${input('dateFrom', t.dateFrom, f.dateFrom, 'date')}
${input('dateUntil', t.dateUntil, f.dateUntil, 'date')}
${view.user.merchantId ? '' : select('merchantId', t.merchant, f.merchantId, merchantOptions)}
${select('sort', t.sort, f.sort, [
  ['DATE', t.sortDate],
  ['AMOUNT', t.sortAmount],
  ['STATUS', t.sortStatus],
])}
${select('order', t.order, f.order, [
  ['DESC', t.newest],
  ['ASC', t.oldest],
])}
</div>
<div class="actions"><button class="button" type="submit">${t.apply}</button><a class="button secondary" href="/payments">${t.clear}</a>
<a class="button secondary" id="export" href="/payments/export.csv${query(1).replace(/&?page=1$/, '')}" download>${t.exportCsv}</a></div>
</form>`;
  const first = view.total === 0 ? 0 : (view.page - 1) * view.limit + 1;
  const rows = view.rows
    .map(
      (row) => `<tr data-concept="${html(row.conceptCode)}">
<td>${dateTime(row.createdAt, language, view.zones[row.merchantId] ?? 'UTC')}</td>
<td>${html(row.merchantName)}</td>
<td>${html(labelOf(language, 'concept', row.conceptCode))}</td>
<td><span class="status ${html(row.status)}" data-status="${html(row.status)}">${html(labelOf(language, 'row', row.status))}</span></td>
<td class="num">${money(row.amount, row.currency, language)}</td>
<td><a href="/payments/${html(row.paymentIntentId)}" aria-label="${t.payment} ${html(row.paymentIntentId)}">${html(row.paymentIntentId.slice(0, 8))}…</a></td>
</tr>`,
    )
    .join('');
  const zones = [...new Set(view.rows.map((row) => view.zones[row.merchantId] ?? 'UTC'))];
  const zoneSaid =
    zones.length === 1
      ? zoneNote(language, zones[0])
      : zones.length > 1
        ? `<p class="hint" id="time-zone">${html(t.zoneEachMerchant)}</p>`
        : '';
  const table = view.rows.length
    ? `${zoneSaid}<div class="table"><table id="payments">
<thead><tr><th>${t.date}</th><th>${t.merchant}</th><th>${t.type}</th><th>${t.status}</th><th class="num">${t.amount}</th><th>${t.payment}</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<div class="pager"><span id="count">${fill(t.rowsOf, { from: first, to: first + view.rows.length - 1, total: view.total })}</span>
${view.page > 1 ? `<a href="/payments${query(view.page - 1)}" rel="prev">${t.previous}</a>` : ''}
${view.page < view.pageCount ? `<a href="/payments${query(view.page + 1)}" rel="next">${t.next}</a>` : ''}</div>`
    : `<p class="notice" id="count">${t.noRows}</p>`;
  return dashboardPage({
    language,
    title: t.payments,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.payments}</h1>
${view.problem ? `<p class="notice error" role="alert" id="problem">${html(view.problem)}</p>` : ''}
${form}
${table}`,
  });
}

import { can, DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { Invoice, Merchant, Subscription } from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, money, pageLinks } from './layout';
import { merchantFilter, select } from './payments';
import { fill, labelOf, TEXTS } from './texts';

const SUBSCRIPTION_STATUSES = ['TRIALING', 'ACTIVE', 'PAST_DUE', 'UNPAID', 'CANCELED', 'PAUSED'] as const;

function frequency(s: Subscription, language: PageLanguage): string {
  return html(
    s.intervalCount === 1
      ? labelOf(language, 'once', s.interval)
      : fill(labelOf(language, 'every', s.interval), { count: s.intervalCount }),
  );
}

function status(group: 'subscription' | 'invoice', code: string, language: PageLanguage, id?: string): string {
  return `<span class="status ${html(code)}"${id ? ` id="${id}"` : ''} data-status="${html(code)}">${html(labelOf(language, group, code))}</span>`;
}

/**
 * Subscriptions (contract §31), newest first, by status; with a payer named, that payer's history: every
 * subscription of theirs, each leading to its invoices and their payments.
 */
export function subscriptionsPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchants: Merchant[];
    merchantId: string;
    status?: string;
    payerId?: string;
    rows: Subscription[];
    page: number;
    pageCount: number;
    timeZone?: string;
  },
): string {
  const t = TEXTS[language];
  const zone = view.timeZone ?? 'UTC';
  const query = (page: number) =>
    `/subscriptions?merchantId=${view.merchantId}${view.status ? `&status=${view.status}` : ''}${view.payerId ? `&payerId=${view.payerId}` : ''}&page=${page}`;
  const rows = view.rows
    .map(
      (s) =>
        `<tr data-subscription="${html(s.subscriptionId)}"><td><a href="/subscriptions/${html(s.subscriptionId)}">${html(s.description)}</a></td><td class="num">${money(
          s.amount,
          s.currency,
          language,
        )}</td><td>${frequency(s, language)}</td><td>${status('subscription', s.status, language)}</td><td>${dateTime(s.nextChargeAt, language, zone)}</td><td>${dateTime(
          s.createdAt,
          language,
          zone,
        )}</td></tr>`,
    )
    .join('');
  const pager = pageLinks(query, view.page, view.pageCount);
  const merchants = merchantFilter(t.merchant, view.user, view.merchants, view.merchantId);
  const payer = view.payerId ? `<input type="hidden" name="payerId" value="${html(view.payerId)}">` : '';
  const title = view.payerId ? `${t.subscriptions} · ${t.history}` : t.subscriptions;
  return dashboardPage({
    language,
    title,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${title}</h1>
<form method="get" action="/subscriptions" class="card"><div class="grid">${merchants}${payer}${select('status', t.status, view.status, [
      ['', t.any],
      ...SUBSCRIPTION_STATUSES.map((s): [string, string] => [s, labelOf(language, 'subscription', s)]),
    ])}</div><div class="actions"><button class="button" type="submit">${t.apply}</button></div></form>
${
  rows
    ? `<div class="table"><table id="subscriptions"><thead><tr><th>${t.description}</th><th class="num">${t.amount}</th><th>${t.frequency}</th><th>${t.status}</th><th>${t.nextCharge}</th><th>${t.createdAt}</th></tr></thead><tbody>${rows}</tbody></table></div>${pager}`
    : `<p id="subscriptions">${t.noSubscriptions}</p>`
}`,
  });
}

/** One subscription: its terms and where it stands, and its invoices with their tries and payments. */
export function subscriptionPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    subscription: Subscription;
    invoices: Invoice[];
    timeZone?: string;
    notice?: string;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const s = view.subscription;
  const zone = view.timeZone ?? s.timeZone;
  const invoices = view.invoices.length
    ? `<div class="table"><table id="invoices"><thead><tr><th>${t.period}</th><th class="num">${t.amount}</th><th>${t.status}</th><th class="num">${t.attempts}</th><th>${t.lastDecline}</th><th>${t.nextAttempt}</th><th>${t.payment}</th></tr></thead><tbody>${view.invoices
        .map(
          (i) =>
            `<tr data-invoice="${html(i.invoiceId)}"><td>${dateTime(i.periodStart, language, zone)}</td><td class="num">${money(i.amount, i.currency, language)}</td><td>${status(
              'invoice',
              i.status,
              language,
            )}</td><td class="num">${i.attemptCount}</td><td>${html(i.lastDecline ?? '—')}</td><td>${dateTime(i.nextAttemptAt, language, zone)}</td><td>${
              i.paymentIntentId ? `<a href="/payments/${html(i.paymentIntentId)}">${html(i.paymentIntentId.slice(0, 8))}</a>` : '—'
            }</td></tr>`,
        )
        .join('')}</tbody></table></div>`
    : `<p id="invoices">${t.noInvoices}</p>`;
  const id = html(s.subscriptionId);
  const post = (action: string, label: string, button: string, fields = '') =>
    `<form method="post" action="/subscriptions/${id}/${action}">${csrfField(view.csrfToken)}${fields}<button class="button ${
      action === 'cancel' ? 'danger' : 'secondary'
    }" type="submit" id="${button}">${label}</button></form>`;
  const actions = can(view.user.role, 'manage-subscriptions')
    ? [
        ['TRIALING', 'ACTIVE', 'PAST_DUE'].includes(s.status) ? post('pause', t.pauseSubscription, 'pause') : '',
        ['PAUSED', 'UNPAID'].includes(s.status) ? post('resume', t.resumeSubscription, 'resume') : '',
        s.status !== 'CANCELED' && !s.cancelAtPeriodEnd && s.nextChargeAt
          ? post('cancel', t.cancelAtPeriodEnd, 'cancel-at-end', '<input type="hidden" name="when" value="end">')
          : '',
        s.status !== 'CANCELED' ? post('cancel', t.cancelNow, 'cancel-now', '<input type="hidden" name="when" value="now">') : '',
      ].join('')
    : '';
  return dashboardPage({
    language,
    title: `${t.subscription} ${s.subscriptionId}`,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<p><a href="/subscriptions?merchantId=${html(s.merchantId)}&payerId=${html(s.payerId)}">← ${t.history}</a></p>
<h1>${html(s.description)} ${status('subscription', s.status, language, 'state')}</h1>
${view.notice ? `<p class="notice" role="status" id="notice">${html(view.notice)}</p>` : ''}
${view.problem ? `<p class="notice error" role="alert" id="problem">${html(view.problem)}</p>` : ''}
${actions ? `<div class="actions" id="actions">${actions}</div>` : ''}
<section class="card"><dl>
<dt>ID</dt><dd>${html(s.subscriptionId)}</dd>
<dt>${t.amount}</dt><dd id="amount">${money(s.amount, s.currency, language)}</dd>
<dt>${t.frequency}</dt><dd>${frequency(s, language)}</dd>
<dt>${t.currentPeriod}</dt><dd>${dateTime(s.currentPeriodStart, language, zone)} – ${dateTime(s.currentPeriodEnd, language, zone)}</dd>
<dt>${t.nextCharge}</dt><dd id="next">${dateTime(s.nextChargeAt, language, zone)}</dd>
<dt>${t.createdAt}</dt><dd>${dateTime(s.createdAt, language, zone)}</dd>
${s.endedAt ? `<dt>${t.endedAt}</dt><dd>${dateTime(s.endedAt, language, zone)}</dd>` : ''}
</dl></section>
<section aria-labelledby="invoices-title"><h2 id="invoices-title">${t.invoices}</h2>${invoices}</section>`,
  });
}

/** The confirmation of a cancellation: now (its open invoices void) or at the period's end. */
export function confirmCancelPage(
  language: PageLanguage,
  view: { user: DashboardUser; csrfToken: string; subscription: Subscription; when: 'now' | 'end'; timeZone?: string },
): string {
  const t = TEXTS[language];
  const s = view.subscription;
  const id = html(s.subscriptionId);
  const question =
    view.when === 'now'
      ? t.confirmCancelNow
      : fill(t.confirmCancelAtEnd, { date: dateTime(s.nextChargeAt, language, view.timeZone ?? s.timeZone) });
  return dashboardPage({
    language,
    title: t.confirmCancel,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<div class="card"><h1>${t.confirmCancel}</h1>
<p id="question">${html(question)}</p>
<form method="post" action="/subscriptions/${id}/cancel">${csrfField(view.csrfToken)}
<input type="hidden" name="when" value="${view.when}"><input type="hidden" name="confirmed" value="yes">
<div class="actions"><button class="button danger" type="submit" id="confirm">${t.confirmCancelButton}</button><a class="button secondary" href="/subscriptions/${id}">${t.cancel}</a></div>
</form></div>`,
  });
}

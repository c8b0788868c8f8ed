import { can, DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { Balance, BalanceTransaction, Merchant } from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, money } from './layout';
import { fill, TEXTS } from './texts';

/** What becomes available per day (the pending figures by date), as server-drawn SVG bars, readable through its label and table. */
function upcomingChart(upcoming: Balance['balances'][number]['upcoming'], currency: string, label: string, language: PageLanguage): string {
  const byDay = new Map<string, number>();
  for (const entry of upcoming) byDay.set(entry.availableOn.slice(0, 10), (byDay.get(entry.availableOn.slice(0, 10)) ?? 0) + entry.amount);
  const days = [...byDay.keys()].sort().slice(0, 10);
  const width = 640;
  const height = 180;
  const top = Math.max(...days.map((d) => byDay.get(d)!), 0);
  const slot = width / Math.max(days.length, 1);
  const bars = days
    .map((day, i) => {
      const value = byDay.get(day)!;
      const h = top === 0 ? 0 : Math.max((value / top) * (height - 40), value > 0 ? 2 : 0);
      return `<rect class="bar" x="${(i * slot + slot * 0.2).toFixed(1)}" y="${(height - 22 - h).toFixed(1)}" width="${(slot * 0.6).toFixed(1)}" height="${h.toFixed(1)}"><title>${html(day)}: ${html(money(value, currency, language))}</title></rect><text x="${(i * slot + slot / 2).toFixed(1)}" y="${height - 5}" text-anchor="middle">${html(day.slice(5))}</text>`;
    })
    .join('');
  const chart = `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${html(label)}">${bars}<text x="0" y="14">${html(money(top, currency, language))}</text></svg>`;
  const table = `<details><summary>${TEXTS[language].showData}</summary><div class="table"><table><thead><tr><th>${TEXTS[language].date}</th><th class="num">${TEXTS[language].amount}</th></tr></thead><tbody>${days
    .map((day) => `<tr><td>${html(day)}</td><td class="num">${money(byDay.get(day)!, currency, language)}</td></tr>`)
    .join('')}</tbody></table></div></details>`;
  return `<figure>${chart}</figure>${table}`;
}

export function merchantPicker(
  language: PageLanguage,
  user: DashboardUser,
  merchants: Merchant[],
  selected: string,
  action: string,
): string {
  const t = TEXTS[language];
  if (user.merchantId || merchants.length < 2) return '';
  return `<form method="get" action="${action}" class="card"><p><label for="merchantId">${t.merchant}</label><select id="merchantId" name="merchantId">${merchants
    .map((m) => `<option value="${html(m.merchantId)}"${m.merchantId === selected ? ' selected' : ''}>${html(m.merchantName)}</option>`)
    .join('')}</select></p><div class="actions"><button class="button" type="submit">${t.apply}</button></div></form>`;
}

export function movementsTable(language: PageLanguage, rows: BalanceTransaction[], id = 'movements'): string {
  const t = TEXTS[language];
  if (rows.length === 0) return `<p id="${id}">${t.noMovements}</p>`;
  return `<div class="table"><table id="${id}"><thead><tr><th>${t.date}</th><th>${t.type}</th><th class="num">${t.amount}</th><th class="num">${t.fee}</th><th class="num">${t.net}</th><th>${t.status}</th><th>${t.availableOn}</th><th>${t.payout}</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td>${dateTime(r.createdAt, language)}</td><td>${html(r.type)}</td><td class="num">${money(r.amount, r.currency, language)}</td><td class="num">${money(r.fee, r.currency, language)}</td><td class="num">${money(r.net, r.currency, language)}</td><td><span class="status ${html(r.status)}">${html(r.status)}</span></td><td>${dateTime(r.availableOn, language)}</td><td>${r.payoutId ? `<a href="/payouts/${html(r.payoutId)}">${html(r.payoutId.slice(0, 8))}</a>` : '—'}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

/** A merchant's balance (contract §19): per currency, pending, available and in transit; what becomes available when; a payout on request. */
export function balancePage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchants: Merchant[];
    merchantId: string;
    balance: Balance;
    movements: BalanceTransaction[];
    notice?: string;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const cards = view.balance.balances
    .map(
      (b) => `<div class="card figure" data-currency="${html(b.currency)}">
<div>${t.available}</div><div class="value" data-figure="available">${money(b.available, b.currency, language)}</div>
<div>${t.pending}: <strong data-figure="pending">${money(b.pending, b.currency, language)}</strong></div>
<div>${t.inTransit}: <strong data-figure="inTransit">${money(b.inTransit, b.currency, language)}</strong></div>
</div>`,
    )
    .join('');
  const charts = view.balance.balances
    .filter((b) => b.upcoming.length > 0)
    .map((b) => {
      const label = fill(t.upcomingChart, { currency: b.currency });
      return `<section class="card" aria-label="${html(label)}"><h2 style="margin-top:0">${html(label)}</h2>${upcomingChart(b.upcoming, b.currency, label, language)}</section>`;
    })
    .join('');
  // The currency with the most available money comes first in the payout form.
  const richest = [...view.balance.balances].sort((a, b) => b.available - a.available)[0]?.currency;
  const form = can(view.user.role, 'request-payout')
    ? `<section class="card" aria-labelledby="payout-title"><h2 id="payout-title" style="margin-top:0">${t.requestPayout}</h2>
<form method="post" action="/balance/payout">${csrfField(view.csrfToken)}<input type="hidden" name="merchantId" value="${html(view.merchantId)}">
<div class="grid"><p><label for="currency">${t.chooseCurrency}</label><select id="currency" name="currency">${view.balance.balances
        .map((b) => `<option value="${html(b.currency)}"${b.currency === richest ? ' selected' : ''}>${html(b.currency)}</option>`)
        .join('')}</select></p>
<p><label for="amount">${t.amount}</label><input id="amount" name="amount" type="number" step="any" min="0" inputmode="decimal" aria-describedby="amount-hint"><small id="amount-hint">${t.payoutAmountHint}</small></p></div>
<div class="actions"><button class="button" type="submit" id="request-payout">${t.requestPayout}</button><a class="button secondary" href="/payouts?merchantId=${html(view.merchantId)}">${t.payouts}</a></div></form></section>`
    : '';
  return dashboardPage({
    language,
    title: t.balance,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.balance}</h1>
${view.notice ? `<p class="notice" role="status" id="notice">${html(view.notice)}</p>` : ''}
${view.problem ? `<p class="notice error" role="alert" id="problem">${html(view.problem)}</p>` : ''}
${merchantPicker(language, view.user, view.merchants, view.merchantId, '/balance')}
<div class="figures" id="balances">${cards}</div>
<h2>${t.upcoming}</h2>${charts || `<p id="upcoming">${t.nothingUpcoming}</p>`}
${form}
<section aria-labelledby="movements-title"><h2 id="movements-title">${t.movements}</h2>${movementsTable(language, view.movements)}</section>`,
  });
}

/** The confirmation of a payout: what will be paid out, and the key that makes a double submit pay once. */
export function confirmPayoutPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchantId: string;
    currency: string;
    typedAmount: string;
    shown: string;
    account: string;
    operation: string;
  },
): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.confirmPayout,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<div class="card"><h1>${t.confirmPayout}</h1>
<p id="question">${html(fill(t.confirmPayoutQuestion, { amount: view.shown, account: view.account }))}</p>
<form method="post" action="/balance/payout">${csrfField(view.csrfToken)}
<input type="hidden" name="merchantId" value="${html(view.merchantId)}">
<input type="hidden" name="currency" value="${html(view.currency)}">
<input type="hidden" name="amount" value="${html(view.typedAmount)}">
<input type="hidden" name="operation" value="${html(view.operation)}">
<input type="hidden" name="confirmed" value="yes">
<div class="actions"><button class="button" type="submit" id="confirm">${t.confirmPayoutButton}</button><a class="button secondary" href="/balance?merchantId=${html(view.merchantId)}">${t.cancel}</a></div>
</form></div>`,
  });
}

import { can, DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { Balance, BalanceTransaction, Merchant, MerchantLocale, SettlementAccount } from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, money, zoneNote } from './layout';
import { fill, labelOf, Texts, TEXTS } from './texts';

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

/**
 * Balance transactions: types and statuses in the page's language, dates in
 * the merchant's time zone; on a phone each row is a block of labelled
 * lines, so the table never leaves its card (contract §24).
 */
export function movementsTable(language: PageLanguage, rows: BalanceTransaction[], id = 'movements', timeZone = 'UTC'): string {
  const t = TEXTS[language];
  if (rows.length === 0) return `<p id="${id}">${t.noMovements}</p>`;
  const cell = (label: string, content: string, num = false) =>
    `<td${num ? ' class="num"' : ''} data-label="${html(label)}">${content}</td>`;
  return `<div class="table stack"><table id="${id}"><thead><tr><th>${t.date}</th><th>${t.type}</th><th class="num">${t.amount}</th><th class="num">${t.fee}</th><th class="num">${t.net}</th><th>${t.status}</th><th>${t.availableOn}</th><th>${t.payout}</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr data-type="${html(r.type)}">${cell(t.date, dateTime(r.createdAt, language, timeZone))}${cell(t.type, html(labelOf(language, 'type', r.type)))}${cell(
          t.amount,
          money(r.amount, r.currency, language),
          true,
        )}${cell(t.fee, money(r.fee, r.currency, language), true)}${cell(t.net, money(r.net, r.currency, language), true)}${cell(
          t.status,
          `<span class="status ${html(r.status)}" data-status="${html(r.status)}">${html(labelOf(language, 'state', r.status))}</span>`,
        )}${cell(t.availableOn, dateTime(r.availableOn, language, timeZone))}${cell(
          t.payout,
          r.payoutId ? `<a href="/payouts/${html(r.payoutId)}">${html(r.payoutId.slice(0, 8))}</a>` : '—',
        )}</tr>`,
    )
    .join('')}</tbody></table></div>`;
}

/**
 * The settlement accounts whose payouts wait (contract §24) — a new account's
 * hold, or a bank's return from it — and, for an admin, the form that
 * confirms one with a code.
 */
function holds(
  language: PageLanguage,
  t: Texts,
  view: { user: DashboardUser; csrfToken: string; merchantId: string; accounts: SettlementAccount[]; timeZone: string },
): string {
  return view.accounts
    .filter((a) => (a.holdUntil && Date.parse(a.holdUntil) > Date.now()) || a.returnedPayoutId)
    .map((a) => {
      const account = `${a.bankName} ····${a.accountNumber.slice(-4)}`;
      const returned = a.returnedPayoutId;
      const form = can(view.user.role, 'confirm-settlement-accounts')
        ? `<form method="post" action="/balance/settlement-account/confirm">${csrfField(view.csrfToken)}<input type="hidden" name="merchantId" value="${html(view.merchantId)}"><input type="hidden" name="currency" value="${html(a.currency)}">
<p class="hint">${html(returned ? t.confirmReturnedHint : t.confirmAccountHint)}</p>
<div class="grid"><p><label for="code-${html(a.currency)}">${t.authenticatorCode}</label><input id="code-${html(a.currency)}" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required></p></div>
<div class="actions"><button class="button" type="submit" id="confirm-${html(a.currency)}">${t.confirmAccount}</button></div></form>`
        : '';
      const said = returned
        ? fill(html(t.accountReturned), {
            payout: `<a href="/payouts/${html(returned)}">${html(returned.slice(0, 8))}</a>`,
            currency: html(a.currency),
            account: html(account),
          })
        : html(fill(t.accountOnHold, { currency: a.currency, account, until: dateTime(a.holdUntil, language, view.timeZone) }));
      return `<section class="card notice" role="status" id="hold-${html(a.currency)}" data-currency="${html(a.currency)}"${returned ? ' data-returned="true"' : ''}><p style="margin-top:0">${said}</p>${form}</section>`;
    })
    .join('');
}

/**
 * A merchant's balance (contracts §19, §24): per currency, pending,
 * available (a negative figure explained in a line) and in transit; what
 * becomes available when; accounts whose payouts wait, with an admin's
 * confirmation; a payout on request, in the merchant's currency unless
 * another has money; the movements.
 */
export function balancePage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    merchants: Merchant[];
    merchantId: string;
    balance: Balance;
    movements: BalanceTransaction[];
    locale: MerchantLocale | null;
    accounts: SettlementAccount[];
    notice?: string;
    problem?: string;
  },
): string {
  const t = TEXTS[language];
  const timeZone = view.locale?.timeZone ?? 'UTC';
  const cards = view.balance.balances
    .map(
      (b) => `<div class="card figure" data-currency="${html(b.currency)}">
<div>${t.available}</div><div class="value" data-figure="available">${money(b.available, b.currency, language)}</div>
<div>${t.pending}: <strong data-figure="pending">${money(b.pending, b.currency, language)}</strong></div>
<div>${t.inTransit}: <strong data-figure="inTransit">${money(b.inTransit, b.currency, language)}</strong></div>
${b.available < 0 ? `<p class="hint" data-explains="negative">${html(t.negativeAvailable)}</p>` : ''}
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
  // The payout form's currency: the one with the most available money when any has some, otherwise the merchant's own.
  const richest = [...view.balance.balances].filter((b) => b.available > 0).sort((a, b) => b.available - a.available)[0]?.currency;
  const chosen = richest ?? view.balance.balances.find((b) => b.currency === view.locale?.currency)?.currency;
  const form = can(view.user.role, 'request-payout')
    ? `<section class="card" aria-labelledby="payout-title"><h2 id="payout-title" style="margin-top:0">${t.requestPayout}</h2>
<form method="post" action="/balance/payout">${csrfField(view.csrfToken)}<input type="hidden" name="merchantId" value="${html(view.merchantId)}">
<div class="grid"><p><label for="currency">${t.chooseCurrency}</label><select id="currency" name="currency">${view.balance.balances
        .map((b) => `<option value="${html(b.currency)}"${b.currency === chosen ? ' selected' : ''}>${html(b.currency)}</option>`)
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
${zoneNote(language, timeZone)}
<div class="figures" id="balances">${cards}</div>
${holds(language, t, { ...view, timeZone })}
<h2>${t.upcoming}</h2>${charts || `<p id="upcoming">${t.nothingUpcoming}</p>`}
${form}
<section class="card" aria-labelledby="movements-title"><h2 id="movements-title" style="margin-top:0">${t.movements}</h2>${movementsTable(language, view.movements, 'movements', timeZone)}</section>`,
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

import type { DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { Merchant, PayinSummary } from '../payins-api';
import { dashboardPage, html, LOCALES, money } from './layout';
import { fill, TEXTS } from './texts';

export const SPANS = [7, 30, 90] as const;

function percent(rate: number | null, language: PageLanguage): string {
  return rate === null ? '—' : rate.toLocaleString(LOCALES[language], { style: 'percent', maximumFractionDigits: 1 });
}

/**
 * A bar per day of the span (days without payins at zero), drawn on the
 * server as SVG: no script, no chart library to load, readable by a screen
 * reader through its label and the data table beside it.
 */
function dailyChart(days: string[], values: Map<string, number>, currency: string, label: string, language: PageLanguage): string {
  const width = 640;
  const height = 180;
  const top = Math.max(...values.values(), 0);
  const slot = width / days.length;
  const bars = days
    .map((day, i) => {
      const value = values.get(day) ?? 0;
      const h = top === 0 ? 0 : Math.max((value / top) * (height - 30), value > 0 ? 2 : 0);
      return `<rect class="bar" x="${(i * slot + slot * 0.15).toFixed(1)}" y="${(height - 20 - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${html(day)}: ${html(money(value, currency, language))}</title></rect>`;
    })
    .join('');
  const ticks = [days[0], days[days.length - 1]]
    .map((day, i) => `<text x="${i === 0 ? 0 : width}" y="${height - 5}" text-anchor="${i === 0 ? 'start' : 'end'}">${html(day)}</text>`)
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${html(label)}">${bars}${ticks}<text x="0" y="12">${html(money(top, currency, language))}</text></svg>`;
}

function methodChart(rows: { name: string; value: number }[], currency: string, label: string, language: PageLanguage): string {
  const width = 640;
  const row = 26;
  const top = Math.max(...rows.map((r) => r.value), 0);
  const bars = rows
    .map((r, i) => {
      const w = top === 0 ? 0 : (r.value / top) * (width - 260);
      return `<text x="0" y="${i * row + 17}">${html(r.name)}</text><rect class="bar" x="120" y="${i * row + 5}" width="${w.toFixed(1)}" height="16"></rect><text x="${(126 + w).toFixed(1)}" y="${i * row + 17}">${html(money(r.value, currency, language))}</text>`;
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${rows.length * row + 6}" role="img" aria-label="${html(label)}">${bars}</svg>`;
}

export function overviewPage(
  language: PageLanguage,
  view: {
    user: DashboardUser;
    csrfToken: string;
    summary: PayinSummary;
    today: string;
    span: number;
    merchants: Merchant[];
    merchantId?: string;
  },
): string {
  const t = TEXTS[language];
  const { summary } = view;
  const days: string[] = [];
  for (
    let d = new Date(`${summary.dateFrom}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= summary.dateUntil;
    d = new Date(d.getTime() + 86_400_000)
  ) {
    days.push(d.toISOString().slice(0, 10));
  }
  const currencies = summary.totals.map((total) => total.currency);
  const cards = summary.totals
    .map((total) => {
      const today = summary.days.find((d) => d.day === view.today && d.currency === total.currency)?.collected ?? 0;
      return `<div class="card figure" data-currency="${html(total.currency)}">
<div>${t.today}</div><div class="value" data-figure="today">${money(today, total.currency, language)}</div>
<div>${fill(t.lastDays, { days: view.span })}</div><div class="value" data-figure="span">${money(total.collected, total.currency, language)}</div>
<div>${t.refunded}: ${money(total.refunded, total.currency, language)}</div>
<div>${t.approvalRate}: <strong data-figure="approval">${percent(total.approvalRate, language)}</strong> (${fill(t.approvedOf, { approved: total.approved, rejected: total.rejected })})</div>
</div>`;
    })
    .join('');
  const charts = currencies
    .map((currency) => {
      const perDay = new Map(summary.days.filter((d) => d.currency === currency).map((d) => [d.day, d.collected]));
      const perMethod = summary.paymentMethods
        .filter((m) => m.currency === currency)
        .map((m) => ({ name: m.paymentMethodName, value: m.collected }));
      const dayLabel = `${t.collectedPerDay} (${currency})`;
      const methodLabel = `${t.collectedPerMethod} (${currency})`;
      return `<section class="card" aria-label="${html(dayLabel)}"><h2 style="margin-top:0">${html(dayLabel)}</h2>
<figure>${dailyChart(days, perDay, currency, dayLabel, language)}</figure>
<details><summary>${t.showData}</summary><div class="table"><table><thead><tr><th>${t.date}</th><th class="num">${t.collected}</th></tr></thead><tbody>${[
        ...perDay.entries(),
      ]
        .map(([day, value]) => `<tr><td>${html(day)}</td><td class="num">${money(value, currency, language)}</td></tr>`)
        .join('')}</tbody></table></div></details></section>
<section class="card" aria-label="${html(methodLabel)}"><h2 style="margin-top:0">${html(methodLabel)}</h2>
<figure>${methodChart(perMethod, currency, methodLabel, language)}</figure>
<details><summary>${t.showData}</summary><div class="table"><table><thead><tr><th>${t.method}</th><th class="num">${t.collected}</th></tr></thead><tbody>${perMethod
        .map((m) => `<tr><td>${html(m.name)}</td><td class="num">${money(m.value, currency, language)}</td></tr>`)
        .join('')}</tbody></table></div></details></section>`;
    })
    .join('');
  const merchantSelect = view.user.merchantId
    ? ''
    : `<p><label for="merchantId">${t.merchant}</label><select id="merchantId" name="merchantId"><option value="">${t.allMerchants}</option>${view.merchants
        .map(
          (m) =>
            `<option value="${html(m.merchantId)}"${m.merchantId === view.merchantId ? ' selected' : ''}>${html(m.merchantName)}</option>`,
        )
        .join('')}</select></p>`;
  return dashboardPage({
    language,
    title: t.overview,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.overview}</h1>
<form method="get" action="/overview" class="card"><div class="grid">
<p><label for="span">${t.span}</label><select id="span" name="span">${SPANS.map(
      (span) => `<option value="${span}"${span === view.span ? ' selected' : ''}>${html(fill(t.lastDays, { days: span }))}</option>`,
    ).join('')}</select></p>
${merchantSelect}</div><div class="actions"><button class="button" type="submit">${t.apply}</button></div></form>
${cards ? `<div class="figures" id="figures">${cards}</div>${charts}` : `<p class="notice" id="figures">${t.noFigures}</p>`}`,
  });
}

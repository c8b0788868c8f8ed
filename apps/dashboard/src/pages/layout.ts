import { escapeHtml, PageLanguage } from '@pcs/pages';
import type { DashboardUser } from '@pcs/dashboard-identity';
import { can } from '@pcs/dashboard-identity';
import { fill, TEXTS } from './texts';

export const LOCALES: Record<PageLanguage, string> = { es: 'es-UY', en: 'en-US', pt: 'pt-BR' };

/** An amount in major units as the wire gives it, with its currency's decimals, grouped for the language (1.234,50 UYU). */
export function money(amount: number, currency: string, language: PageLanguage): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${amount.toLocaleString(LOCALES[language], { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/**
 * A moment as a person reads it: in the merchant's time zone on the pages of
 * its money (contract §24: a page says which), otherwise in UTC, said so.
 */
export function dateTime(iso: string | null | undefined, language: PageLanguage, timeZone = 'UTC'): string {
  if (!iso) return '—';
  const text = new Date(iso).toLocaleString(LOCALES[language], { dateStyle: 'medium', timeStyle: 'short', timeZone });
  return timeZone === 'UTC' ? `${text} UTC` : text;
}

/** A time zone as a city people know (America/Argentina/Buenos_Aires: Buenos Aires; America/Sao_Paulo: São Paulo). */
export function zoneName(timeZone: string): string {
  const city = timeZone.split('/').pop()!.replace(/_/g, ' ');
  return city === 'Sao Paulo' ? 'São Paulo' : city;
}

/** The line a page of a merchant's money carries: whose clock its dates follow. */
export function zoneNote(language: PageLanguage, timeZone: string): string {
  return timeZone === 'UTC'
    ? ''
    : `<p class="hint" id="time-zone" data-zone="${escapeHtml(timeZone)}">${escapeHtml(fill(TEXTS[language].timeZoneNote, { zone: zoneName(timeZone) }))}</p>`;
}

export const html = escapeHtml;

const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
a{color:#0b57d0}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;background:#15233b;color:#fff}
header a,header button{color:#fff}
header .product{font-weight:600;margin-right:auto}
header nav{display:flex;gap:1rem;flex-wrap:wrap}
header form{margin:0}
header button{background:none;border:1px solid #fff6;border-radius:6px;padding:.3rem .7rem;font:inherit;cursor:pointer}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:#fff;border:1px solid #d9dde3;border-radius:10px;padding:1rem;margin-bottom:1rem}
label{display:block;font-size:.9rem;font-weight:600;margin-bottom:.2rem}
input,select{font:inherit;padding:.45rem .55rem;border:1px solid #8a94a3;border-radius:6px;width:100%;background:#fff;color:inherit}
.grid{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr))}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem;align-items:center}
.button{display:inline-block;font:inherit;font-weight:600;padding:.55rem 1rem;border-radius:6px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;text-decoration:none;cursor:pointer}
.button.secondary{background:#fff;color:#0b57d0}
.button.danger{background:#b3261e;border-color:#b3261e}
:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.table{overflow-x:auto;margin-bottom:1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid #e3e6ea;white-space:nowrap}
td.num,th.num{text-align:right}
.notice{padding:.75rem 1rem;border-radius:8px;margin-bottom:1rem;background:#e8f0fe;border:1px solid #b6cdfb}
.notice.error{background:#fdecea;border-color:#f5b5ae}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
.status{font-size:.8rem;font-weight:700;padding:.1rem .45rem;border-radius:999px;background:#e3e6ea}
.status.APPROVED,.status.SUCCEEDED,.status.succeeded{background:#d8f3dc}
.status.REJECTED,.status.CANCELLED,.status.refused,.status.failed,.status.LOST,.status.overdue{background:#fdecea}
.status.WON{background:#d8f3dc}
.status.NEEDS_RESPONSE,.status.due-soon{background:#fff0c2}
.pager{display:flex;gap:1rem;align-items:center;margin-top:.75rem;flex-wrap:wrap}
.figures{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));margin-bottom:1rem}
.figure .value{font-size:1.4rem;font-weight:700}
figure{margin:0}
svg.chart{width:100%;max-width:720px;height:auto;display:block}
svg.chart .bar{fill:#0b57d0}
svg.chart text{font-size:18px;fill:#4a5361}
details{margin-top:.5rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
input.url{min-width:16rem}
.hint{font-size:.9rem;color:#4a5361;margin:.25rem 0 .75rem}
.figure .hint{margin:.5rem 0 0}
.table.stack{overflow-x:visible}
.table.stack th,.table.stack td:not(.num){white-space:normal}
@media (max-width:48rem){
.table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.table.stack table,.table.stack tbody,.table.stack tr,.table.stack td{display:block;width:100%}
.table.stack tr{border-bottom:1px solid #d9dde3;padding:.4rem 0}
.table.stack td{display:flex;justify-content:space-between;gap:1rem;border:0;padding:.2rem .6rem;white-space:normal;text-align:right}
.table.stack td::before{content:attr(data-label);font-weight:600;text-align:left}
}
@media (max-width:480px){main{padding:.75rem}dl{grid-template-columns:1fr}dt{margin-top:.4rem}}
`;

/** Headers of every dashboard page: never cached, never framed, nothing loaded from elsewhere, no script at all. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

export interface PageFrame {
  readonly language: PageLanguage;
  readonly title: string;
  /** The signed-in person (navigation and sign-out); none on the sign-in page. */
  readonly user?: DashboardUser;
  readonly csrfToken?: string;
  readonly body: string;
}

/** The dashboard's frame: server-rendered, usable without JavaScript, with a keyboard and on a 390-pixel phone. */
export function dashboardPage({ language, title, user, csrfToken, body }: PageFrame): string {
  const t = TEXTS[language];
  const nav = user
    ? `<nav aria-label="${html(t.product)}"><a href="/overview">${t.overview}</a><a href="/payments">${t.payments}</a><a href="/balance">${t.balance}</a><a href="/payouts">${t.payouts}</a><a href="/disputes">${t.disputes}</a><a href="/subscriptions">${t.subscriptions}</a><a href="/reconciliation">${t.reconciliation}</a><a href="/links">${t.links}</a><a href="/payers">${t.payers}</a><a href="/webhooks">${t.webhooks}</a><a href="/merchants">${t.merchants}</a>${
        can(user.role, 'manage-users') && !user.merchantId ? `<a href="/team">${t.team}</a>` : ''
      }${can(user.role, 'read-audit') && !user.merchantId ? `<a href="/audit">${t.audit}</a>` : ''}</nav>
<a class="who" href="/account/password">${html(user.email)}</a>
<form method="post" action="/sign-out">${csrfField(csrfToken)}<button type="submit">${t.signOut}</button></form>`
    : '';
  return `<!doctype html>
<html lang="${language === 'pt' ? 'pt-BR' : language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} · ${t.product}</title>
<style>${STYLES}</style>
</head>
<body>
<header><span class="product">${t.product}</span>${nav}</header>
<main>
${body}
</main>
</body>
</html>`;
}

/** The links under a paged list: ← page / count →, each to `href(n)` (escaped here); nothing for a single page. */
export function pageLinks(href: (page: number) => string, page: number, pageCount: number): string {
  if (pageCount <= 1) return '';
  return `<div class="pager">${page > 1 ? `<a href="${html(href(page - 1))}">←</a>` : ''}<span>${page} / ${pageCount}</span>${
    page < pageCount ? `<a href="${html(href(page + 1))}">→</a>` : ''
  }</div>`;
}

export function csrfField(token: string | undefined): string {
  return token ? `<input type="hidden" name="_csrf" value="${html(token)}">` : '';
}

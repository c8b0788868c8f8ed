import { DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import type { Merchant, ReconciliationRun } from '../payins-api';
import { merchantPicker } from './balance';
import { dashboardPage, dateTime, html } from './layout';
import { labelOf, TEXTS } from './texts';

const amount = (value: number | null | undefined) => (value === null || value === undefined ? '—' : String(value));

/** Reconciliation runs of the processors' reports, newest first, with how many lines matched and differed (contract §19). */
export function reconciliationPage(
  language: PageLanguage,
  view: { user: DashboardUser; csrfToken: string; merchants: Merchant[]; merchantId: string; runs: ReconciliationRun[]; timeZone?: string },
): string {
  const t = TEXTS[language];
  const rows = view.runs
    .map(
      (r) =>
        `<tr><td><a href="/reconciliation/${html(r.runId)}">${dateTime(r.createdAt, language, view.timeZone)}</a></td><td>${html(r.provider)}</td><td>${html(r.from)} – ${html(r.to)}</td><td><span class="status ${html(r.status)}" data-status="${html(r.status)}">${html(labelOf(language, 'run', r.status))}</span></td><td class="num">${r.matched}</td><td class="num" data-discrepancies="${r.discrepancies.length}">${r.discrepancies.length}</td></tr>`,
    )
    .join('');
  return dashboardPage({
    language,
    title: t.reconciliation,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.reconciliation}</h1>
${merchantPicker(language, view.user, view.merchants, view.merchantId, '/reconciliation')}
${
  rows
    ? `<div class="table"><table id="runs"><thead><tr><th>${t.createdAt}</th><th>Gateway</th><th>${t.period}</th><th>${t.status}</th><th class="num">${t.matched}</th><th class="num">${t.discrepancies}</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : `<p id="runs">${t.noRuns}</p>`
}`,
  });
}

export function reconciliationRunPage(
  language: PageLanguage,
  view: { user: DashboardUser; csrfToken: string; run: ReconciliationRun },
): string {
  const t = TEXTS[language];
  const r = view.run;
  const rows = r.discrepancies
    .map(
      (d) =>
        `<tr><td><span class="status failed">${html(d.kind)}</span></td><td>${html(d.externalId)}</td><td class="num">${amount(d.ours?.amount)}</td><td class="num">${amount(d.ours?.fee)}</td><td class="num">${amount(d.theirs?.amount)}</td><td class="num">${amount(d.theirs?.fee)}</td><td>${html(d.theirs?.externalId ?? d.ours?.externalId ?? '—')}</td></tr>`,
    )
    .join('');
  return dashboardPage({
    language,
    title: `${t.run} ${r.runId}`,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<p><a href="/reconciliation?merchantId=${html(r.merchantId)}">← ${t.reconciliation}</a></p>
<h1>${t.run} <span class="status ${html(r.status)}" id="state" data-status="${html(r.status)}">${html(labelOf(language, 'run', r.status))}</span></h1>
<section class="card"><dl>
<dt>Gateway</dt><dd>${html(r.provider)}</dd>
<dt>${t.period}</dt><dd>${html(r.from)} – ${html(r.to)}</dd>
<dt>${t.matched}</dt><dd id="matched">${r.matched}</dd>
<dt>${t.discrepancies}</dt><dd>${r.discrepancies.length}</dd>
${r.failureReason ? `<dt>${t.failureReason}</dt><dd>${html(r.failureReason)}</dd>` : ''}
</dl></section>
<h2>${t.discrepancies}</h2>
${
  rows
    ? `<div class="table"><table id="discrepancies"><thead><tr><th>${t.kind}</th><th>${t.reference}</th><th class="num">${t.ours}: ${t.amount}</th><th class="num">${t.ours}: ${t.fee}</th><th class="num">${t.theirs}: ${t.amount}</th><th class="num">${t.theirs}: ${t.fee}</th><th>ID</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : `<p id="discrepancies">${t.noDiscrepancies}</p>`
}`,
  });
}

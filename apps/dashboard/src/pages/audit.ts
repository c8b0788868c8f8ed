import type { AuditRecord, DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import { dashboardPage, dateTime, html } from './layout';
import { TEXTS } from './texts';

export function auditPage(
  language: PageLanguage,
  view: { user: DashboardUser; csrfToken: string; entries: AuditRecord[]; next?: string },
): string {
  const t = TEXTS[language];
  const rows = view.entries
    .map(
      (e) =>
        `<tr><td>${dateTime(e.at.toISOString(), language)}</td><td>${html(e.email)}</td><td>${html(e.action)}</td><td>${html(e.target ?? '—')}</td><td><span class="status ${html(e.result)}">${html(e.result)}</span></td><td>${html(
          Object.entries(e.detail ?? {})
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join(', '),
        )}</td></tr>`,
    )
    .join('');
  return dashboardPage({
    language,
    title: t.audit,
    user: view.user,
    csrfToken: view.csrfToken,
    body: `<h1>${t.audit}</h1><p><a class="button secondary" id="export" href="/audit/export.csv">${t.downloadCsv}</a></p>${
      view.entries.length
        ? `<div class="table"><table id="audit"><thead><tr><th>${t.when}</th><th>${t.who}</th><th>${t.what}</th><th>${t.target}</th><th>${t.result}</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>`
        : `<p class="notice">${t.noAudit}</p>`
    }${view.next ? `<div class="pager"><a href="/audit?before=${html(view.next)}" rel="next">${t.next}</a></div>` : ''}`,
  });
}

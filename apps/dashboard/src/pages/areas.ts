/*
 * Why one file: the dashboard's smaller areas (links, payers, webhooks, merchants, team), each a pure render of
 * its frame, sharing this file's table, form and pager helpers.
 */
import { can, DashboardUser, Role, ROLES, TeamMember } from '@pcs/dashboard-identity';
import { CURRENCIES, Currency } from '@pcs/kernel';
import { PageLanguage } from '@pcs/pages';
import type {
  Credential,
  EventSummary,
  Link,
  Merchant,
  MerchantConfiguration,
  MerchantCountryProcessor,
  Payer,
  ProcessorHealth,
  CardTestingBlocks,
  WebhookEndpoint,
} from '../payins-api';
import { csrfField, dashboardPage, dateTime, html, LOCALES, money } from './layout';
import { fill, Texts, TEXTS } from './texts';

interface Frame {
  readonly user: DashboardUser;
  readonly csrfToken: string;
  readonly notice?: string;
  readonly problem?: string;
}

function page(language: PageLanguage, frame: Frame, title: string, body: string): string {
  return dashboardPage({
    language,
    title,
    user: frame.user,
    csrfToken: frame.csrfToken,
    body: `<h1>${html(title)}</h1>
${frame.notice ? `<p class="notice" role="status" id="notice">${html(frame.notice)}</p>` : ''}
${frame.problem ? `<p class="notice error" role="alert" id="problem">${html(frame.problem)}</p>` : ''}
${body}`,
  });
}

function table(id: string, headers: string[], rows: string[][]): string {
  return `<div class="table"><table id="${id}"><thead><tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

function pager(t: Texts, path: string, params: Record<string, string | undefined>, pageNumber: number, pageCount: number): string {
  const href = (n: number) =>
    `${path}?${new URLSearchParams({ ...(Object.fromEntries(Object.entries(params).filter(([, v]) => v)) as Record<string, string>), page: String(n) }).toString()}`;
  return `<div class="pager">${pageNumber > 1 ? `<a href="${html(href(pageNumber - 1))}" rel="prev">${t.previous}</a>` : ''}${
    pageNumber < pageCount ? `<a href="${html(href(pageNumber + 1))}" rel="next">${t.next}</a>` : ''
  }</div>`;
}

function merchantOptions(t: Texts, merchants: Merchant[], selected: string | undefined, withAll: boolean): string {
  return `${withAll ? `<option value="">${t.allMerchants}</option>` : ''}${merchants
    .map((m) => `<option value="${html(m.merchantId)}"${m.merchantId === selected ? ' selected' : ''}>${html(m.merchantName)}</option>`)
    .join('')}`;
}

/** Links: the list (by status), a new link's form (its merchant's methods), and each link's URL to copy, share by email or delete. */
export function linksPage(
  language: PageLanguage,
  frame: Frame & {
    links: Link[];
    pageNumber: number;
    status?: string;
    merchants: Merchant[];
    formMerchantId?: string;
    processors: MerchantCountryProcessor[];
  },
): string {
  const t = TEXTS[language];
  const manage = can(frame.user.role, 'manage-links');
  const rows = frame.links.map((link) => [
    `<span class="status ${html(link.status)}">${html(link.status)}</span>`,
    money(link.amount, link.currency, language),
    html(link.description ?? '—'),
    dateTime(link.expirationDate, language),
    `<label class="sr-only" for="url-${html(link.linkId)}">URL</label><input id="url-${html(link.linkId)}" class="url" readonly value="${html(link.url)}" title="${t.copyHint}">`,
    manage && link.status === 'ACTIVE'
      ? `<details><summary>${t.share}</summary><form method="post" action="/links/${html(link.linkId)}/share">${csrfField(frame.csrfToken)}
<p><label for="name-${html(link.linkId)}">${t.receiverName}</label><input id="name-${html(link.linkId)}" name="receiverName" required maxlength="128"></p>
<p><label for="email-${html(link.linkId)}">${t.receiverEmail}</label><input id="email-${html(link.linkId)}" name="receiverEmail" type="email" required maxlength="254"></p>
<button class="button" type="submit">${t.share}</button></form></details>
<form method="post" action="/links/${html(link.linkId)}/delete">${csrfField(frame.csrfToken)}<button class="button secondary" type="submit">${t.deleteLink}</button></form>`
      : '',
  ]);
  const statusSelect = `<form method="get" action="/links" class="actions"><label for="status">${t.status}</label><select id="status" name="status" style="width:auto">${[
    ['', t.any],
    ['ACTIVE', 'ACTIVE'],
    ['USED', 'USED'],
    ['EXPIRED', 'EXPIRED'],
  ]
    .map(([v, label]) => `<option value="${v}"${v === (frame.status ?? '') ? ' selected' : ''}>${label}</option>`)
    .join('')}</select><button class="button secondary" type="submit">${t.apply}</button></form>`;
  const merchantId = frame.user.merchantId ?? frame.formMerchantId;
  const form = !manage
    ? ''
    : !merchantId
      ? `<section class="card" aria-labelledby="new-link"><h2 id="new-link" style="margin-top:0">${t.newLink}</h2><form method="get" action="/links"><p><label for="merchantId">${t.merchant}</label><select id="merchantId" name="merchantId">${merchantOptions(
          t,
          frame.merchants,
          undefined,
          false,
        )}</select></p><p>${t.chooseMerchant}</p><button class="button secondary" type="submit">${t.apply}</button></form></section>`
      : `<section class="card" aria-labelledby="new-link"><h2 id="new-link" style="margin-top:0">${t.newLink}</h2>
<form method="post" action="/links">${csrfField(frame.csrfToken)}<input type="hidden" name="merchantId" value="${html(merchantId)}">
<div class="grid">
<p><label for="amount">${t.amount}</label><input id="amount" name="amount" type="number" step="any" min="0" inputmode="decimal" required></p>
<p><label for="currency">${t.currency}</label><select id="currency" name="currency">${CURRENCIES.map((c) => `<option${c === Currency.UYU ? ' selected' : ''}>${c}</option>`).join('')}</select></p>
<p><label for="vat">${t.vat}</label><input id="vat" name="vatPercentage" type="number" step="any" min="0" value="22" required></p>
<p><label for="country">${t.country}</label><select id="country" name="country"><option>URY</option><option>ARG</option></select></p>
<p><label for="description">${t.description}</label><input id="description" name="description" maxlength="255"></p>
<p><label for="reference">${t.reference}</label><input id="reference" name="reference" maxlength="128"></p>
</div>
<fieldset style="border:0;padding:0"><legend><strong>${t.methods}</strong></legend>${frame.processors
          .map(
            (p) =>
              `<label style="font-weight:400"><input type="checkbox" name="processor" value="${html(p.merchantCountryProcessorId)}" checked style="width:auto"> ${html(
                p.countryProcessor.paymentMethod.paymentMethodName,
              )} (${html(p.countryProcessor.currency.join(', '))})</label>`,
          )
          .join('')}</fieldset>
<div class="actions"><button class="button" type="submit" id="create-link">${t.createLink}</button></div></form></section>`;
  return page(
    language,
    frame,
    t.links,
    `${form}${statusSelect}${
      rows.length ? table('links', [t.status, t.amount, t.description, t.expires, 'URL', ''], rows) : `<p class="notice">${t.noLinks}</p>`
    }${pager(t, '/links', { status: frame.status }, frame.pageNumber, frame.links.length === 25 ? frame.pageNumber + 1 : frame.pageNumber)}`,
  );
}

export function payersPage(
  language: PageLanguage,
  frame: Frame & { payers: Payer[]; searchTerm?: string; pageNumber: number; pageCount: number; total: number },
): string {
  const t = TEXTS[language];
  const rows = frame.payers.map((p) => [
    html(`${p.firstName} ${p.lastName}`),
    html(p.documentNumber ? `${p.documentType ?? ''} ${p.documentNumber}` : '—'),
    html(p.email ?? '—'),
    html(p.phone ?? '—'),
    `<a href="/subscriptions?merchantId=${html(p.merchantId)}&payerId=${html(p.payerId)}">${t.history}</a>`,
  ]);
  return page(
    language,
    frame,
    t.payers,
    `<form method="get" action="/payers" class="card" role="search"><p><label for="searchTerm">${t.search}</label><input id="searchTerm" name="searchTerm" maxlength="100" value="${html(
      frame.searchTerm ?? '',
    )}" aria-describedby="search-hint"><small id="search-hint">${t.searchHint}</small></p><button class="button" type="submit">${t.search}</button></form>
${rows.length ? table('payers', [t.name, t.document, t.email, t.phone, t.subscriptions], rows) : `<p class="notice" id="payers">${t.noPayers}</p>`}
${pager(t, '/payers', { searchTerm: frame.searchTerm }, frame.pageNumber, frame.pageCount)}`,
  );
}

export function webhooksPage(
  language: PageLanguage,
  frame: Frame & {
    endpoints: WebhookEndpoint[];
    events: EventSummary[];
    delivered?: string;
    pageNumber: number;
    pageCount: number;
    merchants: Merchant[];
  },
): string {
  const t = TEXTS[language];
  const admin = can(frame.user.role, 'manage-webhooks');
  const endpoints = frame.endpoints.map((e) => [
    html(e.url),
    html(e.description ?? '—'),
    `<span class="status ${e.disabled ? 'failed' : 'succeeded'}">${e.disabled ? 'disabled' : 'enabled'}</span>`,
    html(e.enabledEvents.join(', ')),
    admin
      ? `<form method="post" action="/webhooks/endpoints/${html(e.webhookEndpointId)}/${e.disabled ? 'enable' : 'disable'}">${csrfField(frame.csrfToken)}<button class="button secondary" type="submit">${
          e.disabled ? t.enable : t.disable
        }</button></form><form method="post" action="/webhooks/endpoints/${html(e.webhookEndpointId)}/delete">${csrfField(frame.csrfToken)}<button class="button secondary" type="submit">${t.remove}</button></form>`
      : '',
  ]);
  const addForm = admin
    ? `<section class="card" aria-labelledby="add-endpoint"><h2 id="add-endpoint" style="margin-top:0">${t.addEndpoint}</h2><form method="post" action="/webhooks/endpoints">${csrfField(frame.csrfToken)}<div class="grid">
<p><label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2048"></p>
<p><label for="description">${t.description}</label><input id="description" name="description" maxlength="256"></p>
${frame.user.merchantId ? '' : `<p><label for="merchantId">${t.merchant}</label><select id="merchantId" name="merchantId">${merchantOptions(t, frame.merchants, undefined, true)}</select></p>`}
</div><button class="button" type="submit" id="add-endpoint-button">${t.addEndpoint}</button></form></section>`
    : '';
  const redeliver = can(frame.user.role, 'manage-webhooks');
  const events = frame.events.map((e) => [
    dateTime(e.createdAt, language),
    html(e.type),
    html(typeof e.data.object.paymentIntentId === 'string' ? e.data.object.paymentIntentId : '—'),
    redeliver
      ? `<form method="post" action="/webhooks/events/${html(e.id)}/redeliver">${csrfField(frame.csrfToken)}<button class="button secondary" type="submit">${t.redeliver}</button></form>`
      : '',
  ]);
  const filter = `<form method="get" action="/webhooks" class="actions"><label for="delivered">${t.events}</label><select id="delivered" name="delivered" style="width:auto">${[
    ['', t.allEvents],
    ['true', t.deliveredOnly],
    ['false', t.undelivered],
  ]
    .map(([v, label]) => `<option value="${v}"${v === (frame.delivered ?? '') ? ' selected' : ''}>${label}</option>`)
    .join('')}</select><button class="button secondary" type="submit">${t.apply}</button></form>`;
  return page(
    language,
    frame,
    t.webhooks,
    `<h2>${t.endpoints}</h2>${endpoints.length ? table('endpoints', ['URL', t.description, t.status, t.events, ''], endpoints) : `<p class="notice">${t.noEndpoints}</p>`}${addForm}
<h2>${t.events}</h2>${filter}${table('events', [t.date, t.type, t.payment, ''], events)}
${pager(t, '/webhooks', { delivered: frame.delivered }, frame.pageNumber, frame.pageCount)}`,
  );
}

/** Merchants and their configuration; never their API credentials (the API answers them to the business; the browser never sees one). */
export function merchantsPage(
  language: PageLanguage,
  frame: Frame & {
    merchants: Merchant[];
    configurations: Map<string, MerchantConfiguration | null>;
    processors: ProcessorHealth[];
    cardTesting: Map<string, CardTestingBlocks>;
  },
): string {
  const t = TEXTS[language];
  const cards = frame.merchants
    .map((m) => {
      const c = frame.configurations.get(m.merchantId);
      const processors = processorsTable(
        frame.processors.filter((p) => p.merchantId === m.merchantId),
        language,
      );
      return `<section class="card" data-merchant="${html(m.merchantId)}"><h2 style="margin-top:0">${html(m.merchantName)} <span class="status ${html(m.status)}">${html(m.status)}</span></h2><dl>
<dt>ID</dt><dd>${html(m.merchantId)}</dd>
<dt>${t.email}</dt><dd>${html(m.email ?? '—')}</dd>
<dt>${t.phone}</dt><dd>${html(m.phone ?? '—')}</dd>
${
  c
    ? `<dt>${t.shortName}</dt><dd>${html(c.shortName ?? '—')}</dd><dt>${t.notificationEmails}</dt><dd>${html((c.notificationEmails ?? []).join(', ') || '—')}</dd><dt>${t.fastPayments}</dt><dd>${c.fastPaymentsEnabled ? t.yes : t.no}</dd><dt>${t.installments}</dt><dd data-installments>${installmentsSummary(c, language)}</dd><dt>${t.routing}</dt><dd data-routing>${routingSummary(c, language)}</dd>`
    : ''
}
</dl>${processors}${cardTestingSection(frame.cardTesting.get(m.merchantId), language)}${
        can(frame.user.role, 'configure-merchants')
          ? `<details><summary>${t.configuration}</summary><form method="post" action="/merchants/${html(m.merchantId)}/configuration">${csrfField(frame.csrfToken)}
<p><label for="short-${html(m.merchantId)}">${t.shortName}</label><input id="short-${html(m.merchantId)}" name="shortName" maxlength="32" value="${html(c?.shortName ?? '')}"></p>
<p><label for="emails-${html(m.merchantId)}">${t.notificationEmails}</label><input id="emails-${html(m.merchantId)}" name="notificationEmails" maxlength="1000" value="${html((c?.notificationEmails ?? []).join(', '))}"></p>
${checkbox(`success-${m.merchantId}`, 'paymentSuccessNotification', t.successNotice, c?.paymentSuccessNotification ?? false)}
${checkbox(`error-${m.merchantId}`, 'paymentErrorNotification', t.errorNotice, c?.paymentErrorNotification ?? false)}
${checkbox(`fast-${m.merchantId}`, 'fastPaymentsEnabled', t.fastPayments, c?.fastPaymentsEnabled ?? false)}
${installmentFields(m.merchantId, c ?? null, language)}
<p><label for="routing-${html(m.merchantId)}">${t.routingRules}</label><textarea id="routing-${html(m.merchantId)}" name="routing" rows="6" maxlength="20000" spellcheck="false" style="width:100%;font-family:monospace" aria-describedby="routing-help-${html(m.merchantId)}">${html(JSON.stringify(c?.routing ?? [], null, 1))}</textarea><small id="routing-help-${html(m.merchantId)}">${t.routingHelp}</small></p>
<button class="button" type="submit">${t.save}</button></form></details>`
          : ''
      }</section>`;
    })
    .join('');
  return page(language, frame, t.merchants, cards);
}

/** The rules in a line each ("VISA URY → DLOCAL, MERCADO_PAGO"); none: each method to its processor. */
function routingSummary(c: MerchantConfiguration, language: PageLanguage): string {
  const rules = c.routing ?? [];
  if (rules.length === 0) return html(TEXTS[language].routingNone);
  return rules
    .map((r) => {
      const facts = [
        r.paymentMethod,
        r.country,
        r.currency,
        r.minAmount !== undefined || r.maxAmount !== undefined ? `${r.minAmount ?? '…'}–${r.maxAmount ?? '…'}` : undefined,
      ]
        .filter(Boolean)
        .join(' ');
      const to = r.split ? r.processors.map((p, i) => `${p} ${r.split![i]}`).join(' / ') : r.processors.join(' → ');
      return `<span class="rule">${html(`${facts}: ${to}`)}</span>`;
    })
    .join('<br>');
}

/** Each processor of the merchant: its circuit's state and its success rates, per method and country below (contract §26). */
/** The card-testing guard's blocks of the last 7 days (contract §30): what, why, until when; hints only, never a card's digits. */
function cardTestingSection(found: CardTestingBlocks | undefined, language: PageLanguage): string {
  if (!found) return '';
  const t = TEXTS[language];
  const labels = TEXTS[language] as Record<string, string>;
  const s = found.settings;
  const settings = s.enabled
    ? fill(t.cardTestingSettings, {
        card: s.maxDeclinesPerCard,
        address: s.maxDeclinesPerAddress,
        attempts: s.maxAttemptsPerAddress,
        window: s.windowMinutes,
        block: s.blockMinutes,
      })
    : t.cardTestingOff;
  const rows = found.blocks.map(
    (b) =>
      `<tr data-block="${html(b.blockId)}" data-scope="${html(b.scope)}" data-active="${b.active}"><td>${html(labels[`cardTesting:${b.scope}`] ?? b.scope)} <code>${html(b.hint)}</code></td><td>${html(
        fill(labels[`cardTesting:${b.reason}`] ?? b.reason, { count: b.count }),
      )}</td><td><span class="status ${b.active ? 'REJECTED' : 'EXPIRED'}">${html(dateTime(b.until, language))}</span></td></tr>`,
  );
  return `<h3>${t.cardTesting}</h3><p class="hint" data-card-testing-settings>${html(settings)}</p>${
    rows.length
      ? `<div class="table"><table data-card-testing><thead><tr><th scope="col">${t.cardTestingScope}</th><th scope="col">${t.cardTestingReason}</th><th scope="col">${t.cardTestingUntil}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
      : `<p class="notice" data-card-testing-none>${t.cardTestingNone}</p>`
  }`;
}

function processorsTable(processors: readonly ProcessorHealth[], language: PageLanguage): string {
  if (processors.length === 0) return '';
  const t = TEXTS[language];
  const rate = (value: number | null) =>
    value === null
      ? `<span class="muted">${t.noAttempts}</span>`
      : `${(value * 100).toLocaleString(LOCALES[language], { maximumFractionDigits: 1 })} %`;
  const rows = processors.flatMap((p) => [
    `<tr data-processor="${html(p.provider)}" data-state="${html(p.state)}"><th scope="row">${html(p.provider)}</th><td><span class="status ${p.state === 'CLOSED' ? 'APPROVED' : p.state === 'OPEN' ? 'REJECTED' : 'PENDING'}">${html(t[`circuit${p.state}`])}</span></td><td>${rate(p.successRate1h)}</td><td>${rate(p.successRate1d)}</td></tr>`,
    ...p.methods.map(
      (m) =>
        `<tr data-method="${html(`${p.provider} ${m.paymentMethod} ${m.country}`)}"><td>↳ ${html(`${m.paymentMethod} ${m.country}`)}</td><td></td><td>${rate(m.successRate1h)}</td><td>${rate(m.successRate1d)}</td></tr>`,
    ),
  ]);
  return `<h3>${t.processors}</h3><div class="table"><table data-processors><thead><tr><th scope="col">${t.processor}</th><th scope="col">${t.circuit}</th><th scope="col">${t.successRate1h}</th><th scope="col">${t.successRate1d}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

const INSTALLMENT_COUNTRIES = [
  ['URY', Currency.UYU],
  ['ARG', Currency.ARS],
  ['BRA', Currency.BRL],
] as const;

/** A merchant's installments per country in a line ("ARG: up to 12, 6 interest-free, least installment $ 5,000.00"); — for none. */
function installmentsSummary(c: MerchantConfiguration, language: PageLanguage): string {
  const t = TEXTS[language];
  const offered = INSTALLMENT_COUNTRIES.flatMap(([country, currency]) => {
    const policy = c.installments?.[country];
    if (!policy || policy.maxInstallments < 2) return [];
    const least = policy.minInstallmentAmount[currency];
    const parts = [fill(t.installmentsSummary, { max: String(policy.maxInstallments), free: String(policy.interestFreeUpTo) })];
    if (least !== undefined) parts.push(fill(t.installmentsMinimum, { amount: money(least, currency, language) }));
    return [`${country}: ${parts.join(', ')}`];
  });
  return offered.length ? html(offered.join(' · ')) : '—';
}

/** The installment fields of the configuration form, per country, filled with the policy. */
function installmentFields(merchantId: string, c: MerchantConfiguration | null, language: PageLanguage): string {
  const t = TEXTS[language];
  return INSTALLMENT_COUNTRIES.map(([country, currency]) => {
    const policy = c?.installments?.[country];
    const id = (field: string) => html(`${field}-${country}-${merchantId}`);
    const field = (name: string, label: string, value: string, inputmode: string) =>
      `<p><label for="${id(name)}">${html(label)}</label><input id="${id(name)}" name="${name}${country}" inputmode="${inputmode}" maxlength="${name === 'minInstallmentAmount' ? 32 : 2}" value="${html(value)}"></p>`;
    const least = policy?.minInstallmentAmount[currency];
    return `<fieldset data-installments-country="${country}"><legend>${html(fill(t.installmentsIn, { country }))}</legend>${field(
      'maxInstallments',
      t.maxInstallments,
      String(policy?.maxInstallments ?? 1),
      'numeric',
    )}${field('interestFreeUpTo', t.interestFreeUpTo, String(policy?.interestFreeUpTo ?? 0), 'numeric')}${field(
      'minInstallmentAmount',
      fill(t.minInstallmentAmount, { currency }),
      least === undefined ? '' : String(least),
      'decimal',
    )}</fieldset>`;
  }).join('\n');
}

function checkbox(id: string, name: string, label: string, checked: boolean): string {
  return `<p><label for="${html(id)}" style="font-weight:400"><input id="${html(id)}" type="checkbox" name="${name}" value="on"${checked ? ' checked' : ''} style="width:auto"> ${html(label)}</label></p>`;
}

export function teamPage(
  language: PageLanguage,
  frame: Frame & { people: TeamMember[]; merchants: Merchant[]; credentials: Credential[] },
): string {
  const t = TEXTS[language];
  const names = new Map(frame.merchants.map((m) => [m.merchantId, m.merchantName]));
  // Disabling or demoting an admin takes the acting admin's fresh code (contract §30): the form asks for it.
  const codeField = (p: TeamMember, path: string) =>
    p.role === 'admin'
      ? `<label class="sr-only" for="${path}-code-${html(p.userId)}">${t.yourCode}</label><input id="${path}-code-${html(p.userId)}" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required placeholder="${t.yourCode}" style="width:8em;display:inline"> `
      : '';
  const action = (p: TeamMember, path: string, label: string) =>
    `<form method="post" action="/team/${html(p.userId)}/${path}" style="display:inline">${csrfField(frame.csrfToken)}${path === 'disable' ? codeField(p, path) : ''}<button class="button secondary" type="submit" data-action="${path}">${label}</button></form>`;
  // Another admin's password and second factor are the operator's to reset (contract §27, §30): not offered here.
  const resets = (p: TeamMember) =>
    p.role === 'admin' ? '' : `${action(p, 'reset-password', t.resetPassword)}${p.mfaEnrolled ? action(p, 'reset-mfa', t.resetMfa) : ''}`;
  const roleForm = (p: TeamMember) =>
    `<form method="post" action="/team/${html(p.userId)}/role" style="display:inline">${csrfField(frame.csrfToken)}<label class="sr-only" for="role-${html(p.userId)}">${t.role}</label><select id="role-${html(p.userId)}" name="role">${ROLES.map(
      (role: Role) => `<option${role === p.role ? ' selected' : ''}>${role}</option>`,
    ).join(
      '',
    )}</select> ${codeField(p, 'role')}<button class="button secondary" type="submit" data-action="role">${t.changeRole}</button></form>`;
  const rows = frame.people.map((p) => [
    html(p.email),
    html(p.role),
    html(p.merchantId ? (names.get(p.merchantId) ?? p.merchantId) : t.wholeBusiness),
    p.mfaEnrolled ? t.enrolled : t.notEnrolled,
    p.disabledAt
      ? `<span class="status refused" data-disabled="true">${fill(t.disabledSince, { when: dateTime(p.disabledAt.toISOString(), language) })}</span>`
      : p.lockedUntil
        ? `<span class="status refused" data-locked="true">${t.locked} ${dateTime(p.lockedUntil.toISOString(), language)}</span>`
        : '—',
    p.userId === frame.user.userId
      ? ''
      : p.disabledAt
        ? `<div class="actions" style="margin:0">${action(p, 'enable', t.enablePerson)}</div>`
        : `<div class="actions" style="margin:0">${resets(p)}${p.lockedUntil ? action(p, 'unlock', t.unlock) : ''}${action(p, 'disable', t.disablePerson)}${roleForm(p)}</div>`,
  ]);
  const roleOptions = ROLES.map((role: Role) => `<option${role === 'viewer' ? ' selected' : ''}>${role}</option>`).join('');
  return page(
    language,
    frame,
    t.team,
    `${table('team', [t.email, t.role, t.scope, t.secondFactor, t.status, ''], rows)}
<section aria-labelledby="credentials-title"><h2 id="credentials-title">${t.credentials}</h2>${table(
      'credentials',
      [t.apiKey, t.scope, t.status, t.lastUsed, t.previousSecret],
      frame.credentials.map((c) => [
        `<code>${html(c.apiKey)}</code>`,
        html(c.merchantId ? (names.get(c.merchantId) ?? c.merchantId) : t.wholeBusiness),
        c.usable ? t.active : `<span class="status refused">${c.revokedAt ? t.revoked : t.expired}</span>`,
        `<span data-last-used="${html(c.apiKey)}">${c.lastUsedAt ? dateTime(c.lastUsedAt, language) : t.never}</span>`,
        c.previousSecretExpiresAt
          ? `${fill(t.previousUntil, { until: dateTime(c.previousSecretExpiresAt, language) })} · ${c.previousSecretLastUsedAt ? dateTime(c.previousSecretLastUsedAt, language) : t.never}`
          : '—',
      ]),
    )}</section>
<section class="card" aria-labelledby="add-person"><h2 id="add-person" style="margin-top:0">${t.addPerson}</h2><form method="post" action="/team">${csrfField(frame.csrfToken)}<div class="grid">
<p><label for="email">${t.email}</label><input id="email" name="email" type="email" required maxlength="254"></p>
<p><label for="role">${t.role}</label><select id="role" name="role">${roleOptions}</select></p>
<p><label for="merchantId">${t.scope}</label><select id="merchantId" name="merchantId"><option value="">${t.wholeBusiness}</option>${merchantOptions(t, frame.merchants, undefined, false)}</select></p>
</div><button class="button" type="submit" id="add">${t.addPerson}</button></form></section>`,
  );
}

export { fill };

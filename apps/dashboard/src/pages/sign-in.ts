import type { DashboardUser } from '@pcs/dashboard-identity';
import { PageLanguage } from '@pcs/pages';
import { csrfField, dashboardPage, html } from './layout';
import { TEXTS } from './texts';

const CARD = 'class="card" style="max-width:28rem;margin:2rem auto"';

function problemOf(problem: string | undefined): string {
  return problem ? `<p class="notice error" role="alert" id="problem">${html(problem)}</p>` : '';
}

export function signInPage(language: PageLanguage, options: { token: string; next: string; email?: string; problem?: string }): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.signIn,
    body: `<div ${CARD}>
<h1>${t.signIn}</h1>
${problemOf(options.problem)}
<form method="post" action="/sign-in">
<input type="hidden" name="_csrf" value="${html(options.token)}">
<input type="hidden" name="next" value="${html(options.next)}">
<p><label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${html(options.email ?? '')}"></p>
<p><label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<div class="actions"><button class="button" type="submit">${t.signIn}</button></div>
</form></div>`,
  });
}

/** The second step: a code of the authenticator app, or a recovery code. */
export function codePage(language: PageLanguage, options: { csrfToken: string; next: string; problem?: string }): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.codeTitle,
    body: `<div ${CARD}>
<h1>${t.codeTitle}</h1>
${problemOf(options.problem)}
<form method="post" action="/sign-in/code">${csrfField(options.csrfToken)}
<input type="hidden" name="next" value="${html(options.next)}">
<p><label for="code">${t.code}</label><input id="code" name="code" autocomplete="one-time-code" inputmode="text" required maxlength="40" aria-describedby="code-hint" autofocus><small id="code-hint">${t.codeHint}</small></p>
<div class="actions"><button class="button" type="submit" id="verify">${t.verify}</button></div>
</form>
${signOutForm(language, options.csrfToken)}</div>`,
  });
}

/** The enrolment at the first sign-in: the QR code (inline SVG), the key as text, and the first code that confirms it. */
export function enrolPage(
  language: PageLanguage,
  options: { csrfToken: string; next: string; secret: string; qrSvg: string; problem?: string },
): string {
  const t = TEXTS[language];
  const grouped = options.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return dashboardPage({
    language,
    title: t.enrolTitle,
    body: `<div ${CARD}>
<h1>${t.enrolTitle}</h1>
${problemOf(options.problem)}
<p>${t.enrolHint}</p>
<figure id="qr" style="max-width:14rem;margin:0 auto 1rem" role="img" aria-label="QR">${options.qrSvg}</figure>
<p><strong>${t.enrolSecret}</strong><br><code id="secret" style="overflow-wrap:anywhere">${html(grouped)}</code></p>
<form method="post" action="/sign-in/enrol">${csrfField(options.csrfToken)}
<input type="hidden" name="next" value="${html(options.next)}">
<p><label for="code">${t.code}</label><input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" required maxlength="10"></p>
<div class="actions"><button class="button" type="submit" id="verify">${t.verify}</button></div>
</form>
${signOutForm(language, options.csrfToken)}</div>`,
  });
}

/** The ten recovery codes, shown once, right after the enrolment. */
export function recoveryCodesPage(language: PageLanguage, options: { codes: string[]; continueTo: string }): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.recoveryTitle,
    body: `<div ${CARD}>
<h1>${t.recoveryTitle}</h1>
<p>${t.recoveryHint}</p>
<ol id="recovery-codes" style="font-family:ui-monospace,monospace">${options.codes.map((c) => `<li>${html(c)}</li>`).join('')}</ol>
<p><a class="button" id="continue" href="${html(options.continueTo)}">${t.continue}</a></p></div>`,
  });
}

/** A person's own new password: when one is due (the first sign-in, after a reset) or whenever they choose. */
export function passwordPage(
  language: PageLanguage,
  options: { csrfToken: string; next: string; due: boolean; notice?: string; problem?: string; user?: DashboardUser },
): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.passwordTitle,
    user: options.due ? undefined : options.user,
    csrfToken: options.csrfToken,
    body: `<div ${CARD}>
<h1>${t.passwordTitle}</h1>
${options.notice ? `<p class="notice" role="status" id="notice">${html(options.notice)}</p>` : ''}
${problemOf(options.problem)}
${options.due ? `<p id="due">${t.passwordDue}</p>` : ''}
<form method="post" action="/account/password">${csrfField(options.csrfToken)}
<input type="hidden" name="next" value="${html(options.next)}">
<p><label for="current">${t.currentPassword}</label><input id="current" name="current" type="password" autocomplete="current-password" required></p>
<p><label for="new">${t.newPassword}</label><input id="new" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="128" aria-describedby="rules"><small id="rules">${t.passwordRules}</small></p>
<p><label for="confirm">${t.confirmPassword}</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required></p>
<div class="actions"><button class="button" type="submit" id="change">${t.changePassword}</button></div>
</form>
${options.due ? signOutForm(language, options.csrfToken) : ''}</div>`,
  });
}

function signOutForm(language: PageLanguage, csrfToken: string): string {
  return `<form method="post" action="/sign-out" style="margin-top:1rem">${csrfField(csrfToken)}<button class="button secondary" type="submit">${TEXTS[language].signOut}</button></form>`;
}

import { PageLanguage } from '@pcs/pages';
import { dashboardPage, html } from './layout';
import { TEXTS } from './texts';

export function signInPage(language: PageLanguage, options: { token: string; next: string; email?: string; problem?: string }): string {
  const t = TEXTS[language];
  return dashboardPage({
    language,
    title: t.signIn,
    body: `<div class="card" style="max-width:26rem;margin:2rem auto">
<h1>${t.signIn}</h1>
${options.problem ? `<p class="notice error" role="alert" id="problem">${html(options.problem)}</p>` : ''}
<form method="post" action="/sign-in">
<input type="hidden" name="_csrf" value="${html(options.token)}">
<input type="hidden" name="next" value="${html(options.next)}">
<p><label for="email">${t.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${html(options.email ?? '')}"></p>
<p><label for="password">${t.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<div class="actions"><button class="button" type="submit">${t.signIn}</button></div>
</form></div>`,
  });
}

import { escapeHtml, PayerLanguage, renderPage } from '@pcs/pages';
import type { SetupPage } from '@pcs/payments';

/** Pix Automático's page (contract §31): the terms, the authorisation in the bank's app, where it stands. */
export const PIX_TEXTS = {
  es: {
    title: 'Autorizar Pix Automático',
    intro: '{merchant} cobrará {amount} {frequency} por Pix Automático, desde el {date}.',
    how: 'Lo autoriza una sola vez en la app de su banco; su banco le avisa antes de cada cobro y puede cancelarlo allí cuando quiera.',
    authorise: 'Autorizar en la app del banco',
    pending: 'Esperando la autorización de su banco. Cuando la haya dado, vuelva a esta página.',
    check: 'Ya autoricé',
    refused: 'Su banco no autorizó el Pix Automático. Puede intentarlo de nuevo.',
    done: 'Pix Automático autorizado. {merchant} cobrará en las fechas acordadas.',
    WEEKLY: 'cada semana',
    MONTHLY: 'cada mes',
    QUARTERLY: 'cada tres meses',
    SEMIANNUAL: 'cada seis meses',
    ANNUAL: 'cada año',
  },
  en: {
    title: 'Authorise Pix Automático',
    intro: '{merchant} will charge {amount} {frequency} by Pix Automático, from {date}.',
    how: 'You authorise it once in your bank’s app; your bank tells you before each charge, and you can cancel it there at any time.',
    authorise: 'Authorise in the bank’s app',
    pending: 'Waiting for your bank’s authorisation. Once you have given it, come back to this page.',
    check: 'I have authorised it',
    refused: 'Your bank did not authorise the Pix Automático. You can try again.',
    done: 'Pix Automático authorised. {merchant} will charge on the agreed dates.',
    WEEKLY: 'every week',
    MONTHLY: 'every month',
    QUARTERLY: 'every three months',
    SEMIANNUAL: 'every six months',
    ANNUAL: 'every year',
  },
  pt: {
    title: 'Autorizar Pix Automático',
    intro: '{merchant} cobrará {amount} {frequency} por Pix Automático, a partir de {date}.',
    how: 'Você autoriza uma única vez no app do seu banco; o banco avisa antes de cada cobrança, e você pode cancelar lá quando quiser.',
    authorise: 'Autorizar no app do banco',
    pending: 'Aguardando a autorização do seu banco. Depois de autorizar, volte a esta página.',
    check: 'Já autorizei',
    refused: 'Seu banco não autorizou o Pix Automático. Você pode tentar de novo.',
    done: 'Pix Automático autorizado. {merchant} cobrará nas datas combinadas.',
    WEEKLY: 'toda semana',
    MONTHLY: 'todo mês',
    QUARTERLY: 'a cada três meses',
    SEMIANNUAL: 'a cada seis meses',
    ANNUAL: 'todo ano',
  },
} as const;

/**
 * Pix Automático's page (contract §31): the terms the payer authorises (the amount, how often, from when), the button
 * that opens the processor's journey to the bank's app, and, once asked, where the authorisation stands (a GET of the
 * page reads it again from the processor).
 */
export function renderPixPage(
  page: Extract<SetupPage, { kind: 'PIX' }>,
  language: PayerLanguage,
  token: string,
  problems: readonly string[],
): string {
  const t = PIX_TEXTS[language];
  const m = page.mandate;
  const s = page.setup.snapshot();
  const amount = `R$ ${(m.amount / 100).toFixed(2).replace('.', language === 'en' ? '.' : ',')}`;
  const [year, month, day] = m.startDate.split('-');
  const date = language === 'en' ? m.startDate : `${day}/${month}/${year}`;
  const intro = t.intro
    .replace('{merchant}', escapeHtml(page.merchantName))
    .replace('{amount}', amount)
    .replace('{frequency}', t[m.frequency])
    .replace('{date}', date);
  const refused = problems.includes('pixRefused') || ('refused' in page && page.refused === true);
  const pending = Boolean(s.pixReference) && !refused;
  return renderPage({
    language,
    title: t.title,
    body: `<h1>${t.title}</h1>
<p id="terms">${intro}</p>
<p class="fine">${t.how}</p>
${refused ? `<p class="field-error" id="refused" role="alert">${t.refused}</p>` : ''}
${pending ? `<p class="notice" id="pending">${t.pending}</p><p><a class="button" id="check" href="/setup/${escapeHtml(s.setupId)}">${t.check}</a></p>` : ''}
<form method="post" action="/setup/${escapeHtml(s.setupId)}" id="setup-form">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input type="hidden" name="pix" value="authorise">
<div class="actions"><button type="submit" id="authorise">${t.authorise}</button></div>
</form>`,
  });
}

import { escapeHtml } from './format';
import { renderPage } from './layout';
import { PayerLanguage } from './language';

const TEXTS: Record<PayerLanguage, { title: string; body: string; retry: string }> = {
  es: {
    title: 'Vuelva a intentar en un momento',
    body: 'No pudimos cargar esta página ahora. No se realizó ningún cobro; su pago sigue como estaba.',
    retry: 'Intentar de nuevo',
  },
  en: {
    title: 'Please try again in a moment',
    body: 'We could not load this page right now. Nothing was charged; your payment is as it was.',
    retry: 'Try again',
  },
  pt: {
    title: 'Tente novamente em um instante',
    body: 'Não conseguimos carregar esta página agora. Nada foi cobrado; seu pagamento continua como estava.',
    retry: 'Tentar novamente',
  },
};

/**
 * What a payer sees while the service cannot reach its database (contract
 * §17): a short page in their language, never a stack or a blank, with a
 * link that loads the same address again (a GET, so nothing is re-posted).
 */
export function renderTryAgainPage(language: PayerLanguage, retryPath: string): string {
  const t = TEXTS[language];
  // A path on this site only: `//host/...` would leave it.
  const href = escapeHtml(`/${retryPath.replace(/^\/+/, '')}`);
  return renderPage({
    language,
    title: t.title,
    body:
      `<h1 id="state" data-state="UNAVAILABLE">${t.title}</h1>` +
      `<p class="status">${t.body}</p>` +
      `<p class="actions"><a class="button" id="retry" href="${href}">${t.retry}</a></p>`,
  });
}

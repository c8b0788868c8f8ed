import { renderPage } from './layout';
import { PayerLanguage } from './language';

const TEXTS: Record<PayerLanguage, { title: string; body: (minutes: number) => string }> = {
  es: {
    title: 'Demasiados intentos de pago',
    body: (minutes) =>
      `Por seguridad, no aceptamos nuevos intentos desde aquí durante ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}. No se realizó ningún cobro. Si es usted quien paga, espere o pida al comercio otro medio.`,
  },
  en: {
    title: 'Too many payment attempts',
    body: (minutes) =>
      `For your security, we do not accept new attempts from here for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}. Nothing was charged. If you are the payer, please wait or ask the merchant for another way to pay.`,
  },
  pt: {
    title: 'Tentativas de pagamento demais',
    body: (minutes) =>
      `Por segurança, não aceitamos novas tentativas daqui durante ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}. Nada foi cobrado. Se você é quem paga, aguarde ou peça ao comerciante outro meio.`,
  },
};

/**
 * What a public page answers (429) while the card-testing guard refuses its
 * card, address or sale (contract §30): in the payer's language, how long,
 * and that nothing was charged; no form, nothing to post again.
 */
export function renderTooManyAttemptsPage(language: PayerLanguage, retryAfterSeconds: number): string {
  const t = TEXTS[language];
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return renderPage({
    language,
    title: t.title,
    body: `<h1 id="state" data-state="TOO_MANY_ATTEMPTS">${t.title}</h1><p class="status">${t.body(minutes)}</p>`,
  });
}

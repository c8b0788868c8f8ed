import { Money } from '@pcs/kernel';
import type { LinkPage } from '@pcs/payment-intents';
import { escapeHtml, formatAmount, formatDateTime, PageLanguage, renderPage } from '@pcs/pages';

const INSTRUMENT_TYPES: Record<PageLanguage, Record<string, string>> = {
  es: {
    CREDIT_CARD: 'tarjeta de crédito',
    DEBIT_CARD: 'tarjeta de débito',
    PREPAID_CARD: 'tarjeta prepaga',
    CASH: 'efectivo',
    BANK_TRANSFER: 'transferencia bancaria',
    A2A: 'de cuenta a cuenta',
    PIX: 'PIX',
    WALLETS: 'billetera',
    CRYPTO: 'cripto',
  },
  en: {
    CREDIT_CARD: 'credit card',
    DEBIT_CARD: 'debit card',
    PREPAID_CARD: 'prepaid card',
    CASH: 'cash',
    BANK_TRANSFER: 'bank transfer',
    A2A: 'account to account',
    PIX: 'PIX',
    WALLETS: 'wallet',
    CRYPTO: 'crypto',
  },
};

const TEXTS = {
  es: {
    title: 'Pagar',
    vat: (tax: string) => `IVA incluido: ${tax}`,
    expires: (date: string) => `Vence el ${date}`,
    choose: 'Elija cómo pagar',
    gone: 'Este link de pago ya no está disponible.',
    goneTitle: 'Link no disponible',
    expired: 'Este link de pago venció. Pida uno nuevo al comercio.',
    paid: 'Pago realizado. ¡Gracias!',
    processing: 'Su pago está en proceso. Le avisaremos cuando se confirme; puede cerrar esta ventana.',
    atGateway: 'Su pago quedó abierto en la pasarela.',
    continue: 'Continuar el pago',
    closed: 'Este pago fue cancelado. Pida un nuevo link al comercio.',
    rejected: (reason: string) => `El pago no se completó (${reason}). Puede intentarlo de nuevo.`,
    stale: 'La página venció. Ábrala de nuevo para pagar.',
  },
  en: {
    title: 'Pay',
    vat: (tax: string) => `VAT included: ${tax}`,
    expires: (date: string) => `Expires on ${date}`,
    choose: 'Choose how to pay',
    gone: 'This payment link is no longer available.',
    goneTitle: 'Link not available',
    expired: 'This payment link has expired. Ask the merchant for a new one.',
    paid: 'Payment made. Thank you!',
    processing: 'Your payment is being processed. You will hear when it is confirmed; you can close this window.',
    atGateway: 'Your payment is still open at the gateway.',
    continue: 'Continue the payment',
    closed: 'This payment was cancelled. Ask the merchant for a new link.',
    rejected: (reason: string) => `The payment did not go through (${reason}). You can try again.`,
    stale: 'This page has expired. Open it again to pay.',
  },
} as const;

/** The link's pay page in each of its states (contract §12). `token` protects the method forms against cross-site posts. */
export function renderPayPage(state: LinkPage, language: PageLanguage, token: string): string {
  const t = TEXTS[language];
  if (state.kind === 'GONE') {
    return renderPage({
      language,
      title: t.goneTitle,
      body: `<h1 id="state" data-state="GONE">${t.goneTitle}</h1><p class="status">${t.gone}</p>`,
    });
  }
  const l = state.link.link.snapshot();
  const amount = Money.ofMinor(l.amount, l.currency);
  const tax = amount.splitVat(l.vatRateBp).tax;
  const header = `<h1 id="merchant">${escapeHtml(state.merchantName)}</h1>
${l.description ? `<p id="description">${escapeHtml(l.description)}</p>` : ''}
<div class="amount" id="amount">${escapeHtml(formatAmount(l.amount, l.currency, language))}</div>
<p class="fine" id="vat">${escapeHtml(t.vat(formatAmount(tax.minor, l.currency, language)))}</p>`;
  let main: string;
  switch (state.kind) {
    case 'CHOOSE':
      main = `${state.lastError ? `<p class="status" id="rejected">${escapeHtml(t.rejected(state.lastError))}</p>` : ''}
<p class="fine" id="expires">${escapeHtml(t.expires(formatDateTime(l.expirationDate, language)))}</p>
<h2 style="font-size:1rem">${t.choose}</h2>
${state.methods
  .map(
    (m) => `<form class="actions" method="post" action="/pay/${l.linkId}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input type="hidden" name="countryProcessorId" value="${escapeHtml(m.countryProcessorId)}">
<button class="method" data-method="${escapeHtml(m.paymentMethod.name)}">${escapeHtml(`${m.paymentMethod.name.replace(/_/g, ' ')} · ${INSTRUMENT_TYPES[language][m.paymentInstrumentType.name] ?? m.paymentInstrumentType.name}`)}</button>
</form>`,
  )
  .join('\n')}`;
      break;
    case 'AT_GATEWAY':
      main = `<p class="status">${t.atGateway}</p><a class="button" id="continue" href="${escapeHtml(state.gatewayUrl)}">${t.continue}</a>`;
      break;
    case 'EXPIRED':
      main = `<p class="status">${t.expired}</p>`;
      break;
    case 'PAID':
      main = `<p class="status">${t.paid}</p>`;
      break;
    case 'PROCESSING':
      main = `<p class="status">${t.processing}</p>`;
      break;
    default:
      main = `<p class="status">${t.closed}</p>`;
  }
  return renderPage({
    language,
    title: `${t.title} · ${state.merchantName}`,
    body: `<span id="state" data-state="${state.kind}"></span>\n${header}\n${main}`,
  });
}

/** A form post that did not come from this page (no or wrong token): nothing happened. */
export function renderStalePage(language: PageLanguage): string {
  return renderPage({
    language,
    title: TEXTS[language].title,
    body: `<h1 id="state" data-state="STALE">${TEXTS[language].title}</h1><p class="status">${TEXTS[language].stale}</p>`,
  });
}

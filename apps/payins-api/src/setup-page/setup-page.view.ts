import { escapeHtml, PAGE_HEADERS, PayerLanguage, renderPage } from '@pcs/pages';
import type { SetupPage } from '@pcs/payments';
import { PIX_TEXTS, renderPixPage } from './pix-setup-page.view';

const TEXTS = {
  es: {
    title: 'Guardar una tarjeta',
    intro: '{merchant} guardará esta tarjeta para cobros futuros. No se cobra nada ahora.',
    method: 'Tarjeta',
    holder: 'Nombre en la tarjeta',
    bin: 'Primeros seis dígitos',
    last4: 'Últimos cuatro dígitos',
    expiry: 'Vencimiento (MM/AA)',
    save: 'Guardar tarjeta',
    fields:
      'Campos de tarjeta del sandbox: se envían solo los primeros seis y los últimos cuatro dígitos, nunca el número completo ni el código.',
    done: 'Tarjeta guardada. {merchant} la usará en sus próximos cobros.',
    gone: 'Este enlace para guardar una tarjeta ya no es válido. Pida uno nuevo a quien se lo envió.',
    none: 'Por ahora no se pueden guardar tarjetas aquí.',
    continue: 'Continuar',
    badBin: 'Escriba los primeros seis dígitos de la tarjeta.',
    badLast4: 'Escriba los últimos cuatro dígitos de la tarjeta.',
    badExpiry: 'Escriba un vencimiento válido y futuro, como 08/29.',
    number: 'Número de tarjeta',
    expiryProcessor: 'Vencimiento',
    code: 'Código de seguridad',
    processorFields: 'Los datos de la tarjeta van directamente a {processor}: no pasan por nuestros servidores.',
    fieldsFailed: 'No se pudieron leer los datos de la tarjeta. Revíselos e intente de nuevo.',
    cardNotSaved: '{processor} no pudo guardar esta tarjeta. Revise los datos o pruebe con otra tarjeta.',
    cardNotOffered: '{merchant} no acepta esta marca de tarjeta. Pruebe con otra tarjeta.',
  },
  en: {
    title: 'Save a card',
    intro: '{merchant} will save this card for future charges. Nothing is charged now.',
    method: 'Card',
    holder: 'Name on the card',
    bin: 'First six digits',
    last4: 'Last four digits',
    expiry: 'Expiry (MM/YY)',
    save: 'Save card',
    fields: 'The sandbox’s card fields: only the first six and the last four digits are sent, never the whole number or the code.',
    done: 'Card saved. {merchant} will use it for its next charges.',
    gone: 'This link to save a card is no longer valid. Ask whoever sent it for a new one.',
    none: 'Cards cannot be saved here for now.',
    continue: 'Continue',
    badBin: 'Type the first six digits of the card.',
    badLast4: 'Type the last four digits of the card.',
    badExpiry: 'Type a valid expiry in the future, such as 08/29.',
    number: 'Card number',
    expiryProcessor: 'Expiry',
    code: 'Security code',
    processorFields: 'The card’s details go straight to {processor}: they never pass through our servers.',
    fieldsFailed: 'The card’s details could not be read. Check them and try again.',
    cardNotSaved: '{processor} could not save this card. Check its details or try another card.',
    cardNotOffered: '{merchant} does not take this card brand. Try another card.',
  },
  pt: {
    title: 'Salvar um cartão',
    intro: '{merchant} salvará este cartão para cobranças futuras. Nada é cobrado agora.',
    method: 'Cartão',
    holder: 'Nome no cartão',
    bin: 'Primeiros seis dígitos',
    last4: 'Últimos quatro dígitos',
    expiry: 'Validade (MM/AA)',
    save: 'Salvar cartão',
    fields:
      'Campos de cartão do sandbox: só os primeiros seis e os últimos quatro dígitos são enviados, nunca o número completo nem o código.',
    done: 'Cartão salvo. {merchant} o usará nas próximas cobranças.',
    gone: 'Este link para salvar um cartão não é mais válido. Peça um novo a quem o enviou.',
    none: 'Por enquanto não é possível salvar cartões aqui.',
    continue: 'Continuar',
    badBin: 'Digite os primeiros seis dígitos do cartão.',
    badLast4: 'Digite os últimos quatro dígitos do cartão.',
    badExpiry: 'Digite uma validade válida e futura, como 08/29.',
    number: 'Número do cartão',
    expiryProcessor: 'Validade',
    code: 'Código de segurança',
    processorFields: 'Os dados do cartão vão direto para {processor}: não passam pelos nossos servidores.',
    fieldsFailed: 'Não foi possível ler os dados do cartão. Confira-os e tente de novo.',
    cardNotSaved: '{processor} não conseguiu salvar este cartão. Confira os dados ou tente outro cartão.',
    cardNotOffered: '{merchant} não aceita esta bandeira de cartão. Tente outro cartão.',
  },
} as const;

export type SetupProblem = 'badBin' | 'badLast4' | 'badExpiry' | 'cardNotSaved' | 'cardNotOffered' | 'pixRefused';

/** What the form sent back, to show again beside its problems (never more than the parts it asks for). */
export interface SetupForm {
  readonly countryProcessorId?: string;
  readonly holder?: string;
  readonly bin?: string;
  readonly last4?: string;
  readonly expiry?: string;
}

const fill = (text: string, merchant: string, processor = '') => text.replace('{merchant}', merchant).replace('{processor}', processor);

/**
 * The page's headers: a processor's fields need its script, its API and its frames, allowed by origin, and our one
 * inline script by its nonce; the sandbox's form loads nothing (the payer pages' policy).
 */
export function setupPageHeaders(page: SetupPage, nonce: string): Record<string, string> {
  const fields = processorFieldsOf(page);
  if (!fields) return { ...PAGE_HEADERS };
  const origins = fields.origins.join(' ');
  return {
    ...PAGE_HEADERS,
    'Content-Security-Policy':
      `default-src 'none'; script-src 'nonce-${nonce}' ${origins}; connect-src ${origins}; frame-src ${origins}; ` +
      `img-src ${origins} data:; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'`,
  };
}

/** The processor's fields the form shows, when its methods are a processor's (the first one's, when several). */
function processorFieldsOf(page: SetupPage) {
  if (page.kind !== 'FORM') return null;
  return page.methods.find((m) => m.fields !== null)?.fields ?? null;
}

/** The setup page (contract §31) in each of its states, on the payer pages' one layout. */
export function renderSetupPage(
  page: SetupPage,
  language: PayerLanguage,
  token: string,
  form: SetupForm = {},
  problems: readonly SetupProblem[] = [],
  nonce = '',
): string {
  const t = TEXTS[language];
  if (page.kind === 'GONE') return renderPage({ language, title: t.title, body: `<h1>${t.title}</h1><p id="gone">${t.gone}</p>` });
  const merchant = escapeHtml(page.merchantName);
  if (page.kind === 'DONE') {
    const s = page.setup.snapshot();
    const back = `${s.returnUrl}${s.returnUrl.includes('?') ? '&' : '?'}setupId=${s.setupId}`;
    const title = s.pixMandate ? PIX_TEXTS[language].title : t.title;
    const done = s.pixMandate ? PIX_TEXTS[language].done : t.done;
    return renderPage({
      language,
      title,
      body: `<h1>${title}</h1><p class="notice" id="done">${fill(done, merchant)}</p><p><a class="button" href="${escapeHtml(back)}">${t.continue}</a></p>`,
    });
  }
  if (page.kind === 'PIX') return renderPixPage(page, language, token, problems);
  if (page.methods.length === 0) return renderPage({ language, title: t.title, body: `<h1>${t.title}</h1><p id="none">${t.none}</p>` });
  const fields = processorFieldsOf(page);
  if (fields) return renderProcessorForm(page, fields, language, token, problems, nonce);
  const own = page.methods.filter((m) => m.fields === null);
  if (own.length === 0) return renderPage({ language, title: t.title, body: `<h1>${t.title}</h1><p id="none">${t.none}</p>` });
  const field = (name: keyof SetupForm, label: string, attributes: string, problem?: 'badBin' | 'badLast4' | 'badExpiry') => {
    const wrong = problem && problems.includes(problem);
    return `<p class="field"><label for="${name}">${label}</label><input id="${name}" name="${name}" ${attributes} value="${escapeHtml(
      form[name] ?? '',
    )}"${wrong ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>${wrong ? `<span class="field-error" id="${name}-error">${t[problem]}</span>` : ''}</p>`;
  };
  const options = own
    .map(
      (m) =>
        `<option value="${escapeHtml(m.countryProcessorId)}"${m.countryProcessorId === form.countryProcessorId ? ' selected' : ''}>${escapeHtml(
          m.paymentMethod,
        )}</option>`,
    )
    .join('');
  return renderPage({
    language,
    title: t.title,
    body: `<h1>${t.title}</h1>
<p>${fill(t.intro, merchant)}</p>
<form method="post" action="/setup/${escapeHtml(page.setup.id)}" id="setup-form">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<p class="field"><label for="countryProcessorId">${t.method}</label><select id="countryProcessorId" name="countryProcessorId">${options}</select></p>
${field('holder', t.holder, 'autocomplete="cc-name" maxlength="64"')}
${field('bin', t.bin, 'inputmode="numeric" autocomplete="off" maxlength="6" required', 'badBin')}
${field('last4', t.last4, 'inputmode="numeric" autocomplete="off" maxlength="4" required', 'badLast4')}
${field('expiry', t.expiry, 'inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="MM/AA" required', 'badExpiry')}
<div class="actions"><button type="submit" id="save">${t.save}</button></div>
</form>
<p class="fine">${t.fields}</p>`,
  });
}

/**
 * The form with a processor's card fields (contract §31): its script (CardFields.mount, the processor's library's)
 * mounts them in the containers `cardNumber`, `expirationDate` and `securityCode`, and on submit trades them for the
 * processor's card token, put in `cardToken`: only it is posted (the name on the card goes to the processor with the
 * card). The form's `data-public-key` and `data-language` are the script's settings. Without script nothing is sent.
 */
function renderProcessorForm(
  page: Extract<SetupPage, { kind: 'FORM' }>,
  fields: NonNullable<ReturnType<typeof processorFieldsOf>>,
  language: PayerLanguage,
  token: string,
  problems: readonly SetupProblem[],
  nonce: string,
): string {
  const t = TEXTS[language];
  const merchant = escapeHtml(page.merchantName);
  const processor = escapeHtml(fields.displayName);
  const refused = problems.find((p) => p === 'cardNotSaved' || p === 'cardNotOffered');
  const container = (id: string, label: string) =>
    `<div class="field"><label id="${id}-label">${label}</label><div id="${id}" class="secure-field" role="group" aria-labelledby="${id}-label"></div></div>`;
  return renderPage({
    language,
    title: t.title,
    body: `<h1>${t.title}</h1>
<p>${fill(t.intro, merchant)}</p>
${refused ? `<p class="field-error" id="refused" role="alert">${fill(t[refused], merchant, processor)}</p>` : ''}
<form method="post" action="/setup/${escapeHtml(page.setup.id)}" id="setup-form" data-public-key="${escapeHtml(fields.publicKey)}" data-language="${language}"${Object.entries(
      fields.data ?? {},
    )
      .map(([key, value]) => ` data-${escapeHtml(key)}="${escapeHtml(value)}"`)
      .join('')}>
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input type="hidden" name="processor" value="${escapeHtml(fields.processor)}">
<input type="hidden" name="cardToken" id="cardToken" value="">
<p class="field"><label for="holder">${t.holder}</label><input id="holder" autocomplete="cc-name" maxlength="64" required></p>
${container('cardNumber', t.number)}
${container('expirationDate', t.expiryProcessor)}
${container('securityCode', t.code)}
<p class="field-error" id="fields-error" role="alert" hidden>${t.fieldsFailed}</p>
<div class="actions"><button type="submit" id="save">${t.save}</button></div>
</form>
<p class="fine">${fill(t.processorFields, merchant, processor)}</p>
<script src="${escapeHtml(fields.script)}" nonce="${escapeHtml(nonce)}"></script>
<script nonce="${escapeHtml(nonce)}">${fields.mount}</script>`,
  });
}

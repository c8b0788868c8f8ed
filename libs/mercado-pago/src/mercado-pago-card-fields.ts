/**
 * Mounts MercadoPago.js' Secure Fields on our setup page and trades them for a card token on submit (its documented
 * `fields` API: `mp.fields.create(type).mount(container)`, `mp.fields.createCardToken({ cardholderName })`). The page
 * gives the public key and the payer's language in the form's data attributes.
 */
export const MERCADO_PAGO_CARD_FIELDS = `(function () {
  var form = document.getElementById('setup-form');
  var failed = document.getElementById('fields-error');
  var locales = { es: 'es-AR', en: 'en-US', pt: 'pt-BR' };
  var mp = new MercadoPago(form.dataset.publicKey, { locale: locales[form.dataset.language] || 'es-AR' });
  mp.fields.create('cardNumber', { placeholder: '0000 0000 0000 0000' }).mount('cardNumber');
  mp.fields.create('expirationDate', { placeholder: 'MM/YY' }).mount('expirationDate');
  mp.fields.create('securityCode', { placeholder: '123' }).mount('securityCode');
  var sending = false;
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (sending) return;
    sending = true;
    failed.hidden = true;
    mp.fields.createCardToken({ cardholderName: document.getElementById('holder').value }).then(function (cardToken) {
      if (!cardToken || !cardToken.id) throw new Error('no token');
      document.getElementById('cardToken').value = cardToken.id;
      form.submit();
    }).catch(function () {
      sending = false;
      failed.hidden = false;
    });
  });
})();`;

/** Each processor's script that mounts its fields on the form and puts its card token in `cardToken` on submit. */

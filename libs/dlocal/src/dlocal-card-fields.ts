/**
 * Mounts dLocal's all-in-one card Smart Field (dLocal.js: `dlocal(apiKey)`, `.fields({ locale, country })`,
 * `.create('card')`, `.mount(element)`, `dlocal.createToken(card, { name })`) in the setup page's number container,
 * hides the other two (the one field takes the number, the expiry and the code), and on submit trades it for the
 * card token. The page gives the key, the payer's language and the country in the form's data attributes.
 */
export const DLOCAL_CARD_FIELDS = `(function () {
  var form = document.getElementById('setup-form');
  var failed = document.getElementById('fields-error');
  var instance = dlocal(form.dataset.publicKey);
  var fields = instance.fields({ locale: form.dataset.language || 'es', country: form.dataset.country });
  var card = fields.create('card', {});
  card.mount(document.getElementById('cardNumber'));
  ['expirationDate', 'securityCode'].forEach(function (id) { document.getElementById(id).parentElement.hidden = true; });
  var sending = false;
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (sending) return;
    sending = true;
    failed.hidden = true;
    instance.createToken(card, { name: document.getElementById('holder').value }).then(function (result) {
      if (!result || !result.token) throw new Error('no token');
      document.getElementById('cardToken').value = result.token;
      form.submit();
    }).catch(function () {
      sending = false;
      failed.hidden = false;
    });
  });
})();`;

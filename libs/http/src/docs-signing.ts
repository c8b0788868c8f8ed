/**
 * What makes /docs send signed requests from the browser. The Authorize
 * dialog takes the api-key and, in the `signature` field, the API secret;
 * before each "Try it out" request Swagger UI calls the interceptor, which
 * removes that secret and signs the request version 3 (contract §29, RFC
 * 9421 with HMAC-SHA256): `Content-Digest` of the body exactly as sent,
 * `Signature-Input` over `@method`, `@path`, `@query` (with a query) and
 * `content-digest` (with a body), a random nonce and the time, and
 * `Signature`, computed with Web Crypto. The secret never leaves the page and
 * is not stored (persistAuthorization stays off).
 *
 * Plain browser JavaScript kept as text: Swagger UI receives it as an inline
 * script, not through this project's compiler.
 */
export const DOCS_SIGNING_SCRIPT = `
window.pcsSignRequest = async function (request) {
  var headers = request.headers || {};
  var secret = headers['signature'];
  var apiKey = headers['api-key'];
  if (!secret || !apiKey) return request;
  if (!window.crypto || !window.crypto.subtle) {
    throw new Error('Signing needs Web Crypto, which browsers offer only over HTTPS or on localhost.');
  }
  var encoder = new TextEncoder();
  var base64 = function (bytes) {
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary);
  };
  var body = request.body === undefined || request.body === null ? ''
    : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  var url = new URL(request.url, window.location.href);
  var lines = ['"@method": ' + String(request.method || 'GET').toUpperCase(), '"@path": ' + (url.pathname || '/')];
  var components = ['"@method"', '"@path"'];
  if (url.search) { lines.push('"@query": ' + url.search); components.push('"@query"'); }
  delete headers['signature'];
  delete headers['api-key'];
  if (body !== '') {
    var digest = 'sha-256=:' + base64(new Uint8Array(await window.crypto.subtle.digest('SHA-256', encoder.encode(body)))) + ':';
    headers['Content-Digest'] = digest;
    lines.push('"content-digest": ' + digest);
    components.push('"content-digest"');
  }
  var nonce = base64(window.crypto.getRandomValues(new Uint8Array(18))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  var parameters = '(' + components.join(' ') + ');created=' + Math.floor(Date.now() / 1000) + ';nonce="' + nonce + '";keyid="' + apiKey + '";alg="hmac-sha256"';
  lines.push('"@signature-params": ' + parameters);
  var key = await window.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  var mac = new Uint8Array(await window.crypto.subtle.sign('HMAC', key, encoder.encode(lines.join('\\n'))));
  headers['Signature-Input'] = 'pcs=' + parameters;
  headers['Signature'] = 'pcs=:' + base64(mac) + ':';
  request.body = body === '' ? undefined : body;
  request.headers = headers;
  return request;
};
`;

/** Swagger UI's options for /docs: every request goes through the signing script. */
export const DOCS_SWAGGER_OPTIONS = {
  // Serialized into the page as source text; it only hands over to the script above.
  requestInterceptor: (request: unknown) => (globalThis as unknown as { pcsSignRequest(r: unknown): unknown }).pcsSignRequest(request),
  persistAuthorization: false,
  displayRequestDuration: true,
  tryItOutEnabled: false,
};

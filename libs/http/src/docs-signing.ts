/**
 * What makes /docs send signed requests (contract §5) from the browser. The
 * Authorize dialog takes the api-key and, in the `signature` field, the API
 * secret; before each "Try it out" request Swagger UI calls the interceptor,
 * which adds a `timestamp` (Unix seconds) and replaces that secret with the
 * HMAC-SHA256 of `<timestamp>.<body exactly as sent>` (`{}` without one):
 * signing version 2 (contract §17), computed with Web Crypto. The secret
 * never leaves the page and is not stored (persistAuthorization stays off).
 *
 * Plain browser JavaScript kept as text: Swagger UI receives it as an inline
 * script, not through this project's compiler.
 */
export const DOCS_SIGNING_SCRIPT = `
window.pcsSignRequest = async function (request) {
  var headers = request.headers || {};
  var secret = headers['signature'];
  if (!secret || !headers['api-key']) return request;
  if (!window.crypto || !window.crypto.subtle) {
    throw new Error('Signing needs Web Crypto, which browsers offer only over HTTPS or on localhost.');
  }
  var body = request.body === undefined || request.body === null || request.body === '' ? '{}'
    : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  var timestamp = String(Math.floor(Date.now() / 1000));
  var encoder = new TextEncoder();
  var key = await window.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  var mac = new Uint8Array(await window.crypto.subtle.sign('HMAC', key, encoder.encode(timestamp + '.' + body)));
  headers['timestamp'] = timestamp;
  headers['signature'] = Array.from(mac, function (byte) { return byte.toString(16).padStart(2, '0'); }).join('');
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

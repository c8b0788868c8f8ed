import * as crypto from 'node:crypto';
import { messageMacMatches, nonceRecord, readMessageSignature, SignedMessage } from './message-signature';

/** The worked example of docs/integration.md (contract §29), its signature computed with openssl. */
const BODY = '{"requestedRefundAmount":100}';
const DIGEST = 'sha-256=:CSHhfyyUE5L+WYKumVPQYhS6AaSmRETGXRFMXzJ9dUI=:';
const INPUT =
  'pcs=("@method" "@path" "content-digest");created=1795400000;nonce="wX3c8kJ2mN5pQ7rT9vY1zA";keyid="pk_test_example";alg="hmac-sha256"';
const SIGNATURE = 'pcs=:DdeLFVThobIZwjMszgU2MpHBD38VroTRBVvndf0PN/I=:';
const PATH = '/payment-intent/3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d10/refund';
const NOW = 1795400000 + 10;

function refund(headers: Record<string, string | undefined> = {}, changes: Partial<SignedMessage> = {}): SignedMessage {
  return {
    method: 'POST',
    originalUrl: PATH,
    rawBody: Buffer.from(BODY),
    headers: { 'content-type': 'application/json', 'content-digest': DIGEST, 'signature-input': INPUT, signature: SIGNATURE, ...headers },
    ...changes,
  };
}

/** Signs `input`'s components over `message` with the example's secret, as a client would: the base written out by hand. */
function resign(
  message: SignedMessage,
  components: string,
  lines: string[],
  parameters = ';created=1795400000;nonce="wX3c8kJ2mN5pQ7rT9vY1zA";keyid="pk_test_example"',
) {
  const input = `pcs=(${components})${parameters}`;
  const base = [...lines, `"@signature-params": (${components})${parameters}`].join('\n');
  const mac = crypto.createHmac('sha256', 'test_secret').update(base).digest('base64');
  return { ...message, headers: { ...message.headers, 'signature-input': input, signature: `pcs=:${mac}:` } };
}

describe('version 3 request signatures (RFC 9421, contract §29)', () => {
  it('recomputes the worked example: its base, its keyid, nonce and created, and its HMAC under the secret only', () => {
    const read = readMessageSignature(refund(), NOW);
    if ('malformed' in read) throw new Error(read.malformed);
    expect(read.base.toString()).toBe(
      [
        '"@method": POST',
        `"@path": ${PATH}`,
        `"content-digest": ${DIGEST}`,
        '"@signature-params": ("@method" "@path" "content-digest");created=1795400000;nonce="wX3c8kJ2mN5pQ7rT9vY1zA";keyid="pk_test_example";alg="hmac-sha256"',
      ].join('\n'),
    );
    expect(read).toMatchObject({ keyId: 'pk_test_example', nonce: 'wX3c8kJ2mN5pQ7rT9vY1zA', created: 1795400000 });
    expect(messageMacMatches('test_secret', read)).toBe(true);
    expect(messageMacMatches('test_secret2', read)).toBe(false);
    expect(nonceRecord('wX3c8kJ2mN5pQ7rT9vY1zA')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('binds the method, the path, the query and the body: the example moved to any other request does not verify', () => {
    const moved: SignedMessage[] = [
      refund({}, { method: 'PUT' }),
      refund({}, { originalUrl: '/payment-intent/3f1c2b9a-0d4e-4f7a-9a51-6b2f0c8e7d11/refund' }),
      refund({}, { originalUrl: `${PATH}?x=1` }),
    ];
    // A path a URL parser would rewrite is never signed for the route it would reach.
    for (const originalUrl of [`/payer/../${PATH.slice(1)}`, `/${PATH}`, `${PATH}/.`, PATH.replace('/refund', '\\refund'), '//[', '//[::1'])
      expect(readMessageSignature(refund({}, { originalUrl }), NOW)).toEqual({ malformed: 'components' });
    for (const message of moved) {
      const read = readMessageSignature(message, NOW);
      expect('malformed' in read ? read.malformed : messageMacMatches('test_secret', read)).toEqual(
        message.originalUrl.includes('?') ? 'components' : false,
      );
    }
    // Another body: its digest is not the header's.
    expect(readMessageSignature(refund({}, { rawBody: Buffer.from('{"requestedRefundAmount":1000}') }), NOW)).toEqual({
      malformed: 'digest',
    });
    // Another body with its own digest: the signature covered the digest.
    const other = Buffer.from('{}');
    const read = readMessageSignature(
      refund({ 'content-digest': `sha-256=:${crypto.createHash('sha256').update(other).digest('base64')}:` }, { rawBody: other }),
      NOW,
    );
    expect('malformed' in read ? read.malformed : messageMacMatches('test_secret', read)).toBe(false);
  });

  it('verifies extra components a client adds (a header, a query parameter), and refuses one the request lacks', () => {
    const base = refund({}, { originalUrl: `${PATH}?mode=full` });
    const lines = [
      '"@method": POST',
      `"@path": ${PATH}`,
      '"@query": ?mode=full',
      `"content-digest": ${DIGEST}`,
      '"content-type": application/json',
    ];
    const signed = resign(base, '"@method" "@path" "@query" "content-digest" "content-type"', lines);
    const read = readMessageSignature(signed, NOW);
    if ('malformed' in read) throw new Error(read.malformed);
    expect(messageMacMatches('test_secret', read)).toBe(true);
    const changedType = readMessageSignature({ ...signed, headers: { ...signed.headers, 'content-type': 'text/plain' } }, NOW);
    expect('malformed' in changedType ? changedType.malformed : messageMacMatches('test_secret', changedType)).toBe(false);
    const lacking = { ...signed, headers: { ...signed.headers, 'content-type': undefined } };
    expect(readMessageSignature(lacking, NOW)).toEqual({ malformed: 'components' });
  });

  it('refuses every malformed signature with its reason, never throwing', () => {
    const cases: [string, SignedMessage, number?][] = [
      ['syntax', refund({ 'signature-input': 'pcs=("@method" "@path"' })],
      ['labels', refund({ signature: 'pcs=DdeLFVThobIZ' })],
      ['syntax', refund({ 'signature-input': '' })],
      ['labels', refund({ 'signature-input': `${INPUT}, ${INPUT}` })],
      ['labels', refund({ signature: `${SIGNATURE}, other=:AAAA:` })],
      ['labels', refund({ signature: 'other=:DdeLFVThobIZwjMszgU2MpHBD38VroTRBVvndf0PN/I=:' })],
      ['labels', refund({ signature: 'pcs="DdeLFVThobIZwjMszgU2MpHBD38VroTRBVvndf0PN/I="' })],
      ['labels', refund({ 'signature-input': 'pcs="@method"' })],
      ['components', refund({ 'signature-input': INPUT.replace(' "content-digest"', '') })],
      ['components', refund({ 'signature-input': INPUT.replace('"@path" ', '') })],
      ['components', refund({ 'signature-input': INPUT.replace('"@method"', '"@method" "@method"') })],
      ['components', refund({ 'signature-input': INPUT.replace('"@method"', '"@METHOD"') })],
      ['components', refund({ 'signature-input': INPUT.replace('"@method"', '"@method" "@status"') })],
      ['components', refund({ 'signature-input': INPUT.replace('"@method"', '"@method" "x-missing"') })],
      ['syntax', refund({ 'signature-input': INPUT.replace('"@method"', '@method') })],
      ['parameters', refund({ 'signature-input': INPUT.replace('nonce="wX3c8kJ2mN5pQ7rT9vY1zA"', 'nonce="short"') })],
      ['parameters', refund({ 'signature-input': INPUT.replace('nonce="wX3c8kJ2mN5pQ7rT9vY1zA"', 'nonce="wX3c8kJ2mN5pQ7rT9vY1zA!!"') })],
      ['parameters', refund({ 'signature-input': INPUT.replace(';nonce="wX3c8kJ2mN5pQ7rT9vY1zA"', '') })],
      ['parameters', refund({ 'signature-input': INPUT.replace('created=1795400000', 'created="1795400000"') })],
      ['parameters', refund({ 'signature-input': INPUT.replace('created=1795400000', 'created=1795400000.5') })],
      ['parameters', refund({ 'signature-input': INPUT.replace(';keyid="pk_test_example"', '') })],
      ['algorithm', refund({ 'signature-input': INPUT.replace('hmac-sha256', 'rsa-pss-sha512') })],
      ['algorithm', refund({ 'signature-input': INPUT.replace('alg="hmac-sha256"', 'alg=hmac-sha256') })],
      ['stale', refund(), 1795400000 + 301],
      ['stale', refund(), 1795400000 - 301],
      ['stale', refund({ 'signature-input': `${INPUT};expires=1795400005` })],
      ['digest', refund({ 'content-digest': undefined })],
      ['digest', refund({ 'content-digest': 'sha-512=:AAAA:' })],
      ['digest', refund({ 'content-digest': 'sha-256="CSHhfyyUE5L+WYKumVPQYhS6AaSmRETGXRFMXzJ9dUI="' })],
      ['digest', refund({ 'content-digest': `${DIGEST}, ${DIGEST}` })],
    ];
    for (const [reason, message, now] of cases)
      expect([reason, readMessageSignature(message, now ?? NOW)]).toEqual([reason, { malformed: reason }]);
  });

  it('signs a read without a body over @method, @path and @query, a body-less change over @method and @path', () => {
    const read = resign({ method: 'GET', originalUrl: '/payment-intent?page=1&limit=10', headers: {} }, '"@method" "@path" "@query"', [
      '"@method": GET',
      '"@path": /payment-intent',
      '"@query": ?page=1&limit=10',
    ]);
    const answer = readMessageSignature(read, NOW);
    expect('malformed' in answer ? answer.malformed : messageMacMatches('test_secret', answer)).toBe(true);
    // The read's signature sent as a DELETE: refused by its own base.
    const replay = readMessageSignature({ ...read, method: 'DELETE' }, NOW);
    expect('malformed' in replay ? replay.malformed : messageMacMatches('test_secret', replay)).toBe(false);
    // Without @query when there is one: refused for form.
    expect(
      readMessageSignature(
        { ...read, headers: { ...read.headers, 'signature-input': read.headers['signature-input'].toString().replace(' "@query"', '') } },
        NOW,
      ),
    ).toEqual({
      malformed: 'components',
    });
  });
});

import { httpbis } from 'http-message-signatures';
import * as crypto from 'node:crypto';
import { isInnerList, parseDictionary, serializeInnerList, type Dictionary } from 'structured-headers';

/**
 * Signing version 3 (contract §29): RFC 9421 HTTP Message Signatures with
 * HMAC-SHA256, the body bound by RFC 9530 `Content-Digest`. The structured
 * fields (`Signature-Input`, `Signature`, `Content-Digest`) are parsed by
 * `structured-headers` (RFC 8941) and the signature base is built by
 * `http-message-signatures` (RFC 9421 §2.5); this module only decides what
 * the contract requires of them: one signature, its components, its
 * parameters and the digest of the bytes received.
 */

/** How far `created` may be from the server's clock, either way (contract §29). */
export const SIGNATURE_WINDOW_SECONDS = 300;
export const SIGNATURE_ALGORITHM = 'hmac-sha256';
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** What the guard needs of an express request: the request line, its headers and the bytes of its body. */
export interface SignedMessage {
  readonly method: string;
  /** The request target as received: path and query. */
  readonly originalUrl: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly rawBody?: Buffer;
  /** An upload whose body is not read yet (contract §30): its `Content-Digest` is required, and checked as the bytes stream in. */
  readonly uploadPending?: boolean;
}

/** A version-3 signature that is well formed for the contract; whether its HMAC is right needs the key's secret. */
export interface MessageSignature {
  readonly keyId: string;
  readonly nonce: string;
  readonly created: number;
  /** The signature base (RFC 9421 §2.5) the HMAC covers. */
  readonly base: Buffer;
  readonly mac: Buffer;
  /** For an upload not read yet: the SHA-256 its `Content-Digest` announces, which the bytes must have. */
  readonly pendingDigest?: Buffer;
}

/** Why a version-3 request is refused before any key is looked at (for /metrics and the request's log line; the answer is one 401). */
export type MalformedSignature = { readonly malformed: string };

/** True when the request carries a version-3 signature (its `Signature-Input`). */
export function isVersion3(message: SignedMessage): boolean {
  return message.headers['signature-input'] !== undefined;
}

/**
 * The request's version-3 signature checked for form: a single signature
 * whose label appears once in each header, the components the contract
 * requires (`@method`, `@path`, `@query` with a query, `content-digest` with a
 * body), `created` within the window, a nonce, a `keyid`, `alg` (when given)
 * `hmac-sha256`, `expires` (when given) not passed, and a `Content-Digest`
 * whose SHA-256 is that of the bytes received. `nowSeconds` is the server's clock.
 */
export function readMessageSignature(message: SignedMessage, nowSeconds: number): MessageSignature | MalformedSignature {
  const input = dictionaryOf(message.headers['signature-input']);
  const signatures = dictionaryOf(message.headers['signature']);
  if (input === 'syntax' || signatures === 'syntax') return { malformed: 'syntax' };
  // One signature, its label once in each header (RFC 8941 would keep the last of a repeated label silently).
  if (input === 'repeated' || signatures === 'repeated' || input.size !== 1 || signatures.size !== 1) return { malformed: 'labels' };
  const [[label, member]] = [...input.entries()];
  const signature = signatures.get(label);
  if (!isInnerList(member) || !signature || isInnerList(signature) || !(signature[0] instanceof ArrayBuffer))
    return { malformed: 'labels' };
  const [components, parameters] = member;
  const names = components.map(([name]) => name);
  // RFC 9421 §2.1: component names are strings, lowercase, each named once.
  if (
    components.some(([name]) => typeof name !== 'string' || name !== name.toLowerCase()) ||
    new Set(components.map((c) => serializeInnerList([[c], new Map()]))).size !== components.length
  )
    return { malformed: 'components' };
  const body = message.rawBody ?? Buffer.alloc(0);
  const hasBody = body.length > 0 || message.uploadPending === true;
  const hasQuery = message.originalUrl.includes('?');
  // The path signed is the path routed: one a URL parser would rewrite (`..`, `.`, `//`, a backslash) is refused.
  const rawPath = hasQuery ? message.originalUrl.slice(0, message.originalUrl.indexOf('?')) : message.originalUrl;
  if (!rawPath.startsWith('/') || pathnameOf(message.originalUrl) !== rawPath) return { malformed: 'components' };
  const required = ['@method', '@path', ...(hasQuery ? ['@query'] : []), ...(hasBody ? ['content-digest'] : [])];
  if (!required.every((name) => names.includes(name))) return { malformed: 'components' };

  const created = parameters.get('created');
  const nonce = parameters.get('nonce');
  const keyId = parameters.get('keyid');
  const alg = parameters.get('alg');
  const expires = parameters.get('expires');
  if (!Number.isInteger(created) || typeof nonce !== 'string' || !NONCE.test(nonce) || typeof keyId !== 'string' || keyId.length === 0)
    return { malformed: 'parameters' };
  if (alg !== undefined && (typeof alg !== 'string' || alg !== SIGNATURE_ALGORITHM)) return { malformed: 'algorithm' };
  if (Math.abs(nowSeconds - (created as number)) > SIGNATURE_WINDOW_SECONDS) return { malformed: 'stale' };
  if (expires !== undefined && (!Number.isInteger(expires) || (expires as number) < nowSeconds)) return { malformed: 'stale' };

  let pendingDigest: Buffer | undefined;
  if (names.includes('content-digest') || hasBody) {
    const digest = dictionaryOf(message.headers['content-digest']);
    const sha256 = typeof digest === 'string' ? undefined : digest.get('sha-256');
    if (!sha256 || isInnerList(sha256) || !(sha256[0] instanceof ArrayBuffer)) return { malformed: 'digest' };
    const given = Buffer.from(sha256[0]);
    if (given.length !== 32) return { malformed: 'digest' };
    // An upload's bytes are not read yet: they are checked against it as they stream in, once the signature has verified.
    if (message.uploadPending) pendingDigest = given;
    else if (!crypto.timingSafeEqual(given, crypto.createHash('sha256').update(body).digest())) return { malformed: 'digest' };
  }

  let base: string;
  try {
    const fields = components.map((component) => serializeInnerList([[component], new Map()]).slice(1, -1));
    const lines = httpbis.createSignatureBase({ fields }, requestOf(message));
    lines.push(['"@signature-params"', [serializeInnerList(member)]]);
    base = httpbis.formatSignatureBase(lines);
  } catch {
    // A component the request does not have (a header it lacks), or one RFC 9421 does not define for a request.
    return { malformed: 'components' };
  }
  return { keyId, nonce, created: created as number, base: Buffer.from(base), mac: Buffer.from(signature[0]), pendingDigest };
}

/** What records a nonce as used in `signed_request` (its signature column holds 64 hex characters): the SHA-256 of `n:<nonce>`. */
export function nonceRecord(nonce: string): string {
  return crypto.createHash('sha256').update(`n:${nonce}`).digest('hex');
}

/** The HMAC-SHA256 of the base under `secret` equals the signature's, compared in constant time. */
export function messageMacMatches(secret: string, signature: Pick<MessageSignature, 'base' | 'mac'>): boolean {
  const expected = crypto.createHmac('sha256', secret).update(signature.base).digest();
  const given = signature.mac.length === expected.length ? signature.mac : Buffer.alloc(expected.length);
  return crypto.timingSafeEqual(expected, given) && signature.mac.length === expected.length;
}

/** A header as an RFC 8941 dictionary; 'syntax' when it is absent or not one, 'repeated' when a key is given twice. */
function dictionaryOf(value: string | string[] | undefined): Dictionary | 'syntax' | 'repeated' {
  if (value === undefined) return 'syntax';
  const text = Array.isArray(value) ? value.join(', ') : value;
  if (text.trim() === '') return 'syntax';
  try {
    const parsed = parseDictionary(text);
    return countMembers(text) === parsed.size ? parsed : 'repeated';
  } catch {
    return 'syntax';
  }
}

/**
 * The members a dictionary's text names (`key=` or a bare key at the start of a
 * member), counted outside its strings and inner lists: compared with what the
 * parser kept, it tells a repeated key.
 */
function countMembers(text: string): number {
  let members = 1;
  let quoted = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) members++;
  }
  return members;
}

/** The path a URL parser reads in a request target, or null for one it cannot read (`//[`). */
function pathnameOf(target: string): string | null {
  try {
    return new URL(target, 'http://service.invalid').pathname;
  } catch {
    return null;
  }
}

function requestOf(message: Pick<SignedMessage, 'method' | 'originalUrl' | 'headers'>) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(message.headers)) if (value !== undefined) headers[name] = value;
  return { method: message.method, url: new URL(message.originalUrl, 'http://service.invalid'), headers };
}

import * as ipaddr from 'ipaddr.js';
import type { LookupAddress, LookupOptions } from 'node:dns';
import * as dns from 'node:dns';

/** Why a URL or an address is refused, in English and Spanish (the error's parameters). */
export interface Refusal {
  readonly reason: string;
  readonly reasonEs: string;
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1'];

/** `http://localhost` or `http://127.0.0.1` while allowed: the one place loopback is reachable (development). */
export function isAllowedLocalUrl(url: URL, allowLocalhost: boolean): boolean {
  return allowLocalhost && url.protocol === 'http:' && LOCAL_HOSTS.includes(url.hostname.replace(/^\[|\]$/g, ''));
}

/**
 * Where webhooks may go (contract §14), checked when an endpoint is saved:
 * `https` only; `http` to localhost or 127.0.0.1 only while allowed; no
 * credentials; an address written in the URL must be public. A name is
 * checked again when it resolves at delivery time (see `guardedLookup`).
 */
export function refuseWebhookUrl(raw: string, allowLocalhost: boolean): Refusal | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'it is not an absolute URL', reasonEs: 'no es una URL absoluta' };
  }
  if (url.username || url.password) return { reason: 'it must not carry credentials', reasonEs: 'no debe llevar credenciales' };
  if (isAllowedLocalUrl(url, allowLocalhost)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:') return { reason: 'it must use https', reasonEs: 'debe usar https' };
  if (host === 'localhost' || host.endsWith('.localhost'))
    return { reason: 'it points at this machine', reasonEs: 'apunta a esta máquina' };
  return ipaddr.isValid(host) ? refuseAddress(host) : null;
}

/** Only public unicast addresses: never private, loopback, link-local, unique-local, reserved or multicast ones. */
export function refuseAddress(address: string): Refusal | null {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  return {
    reason: `it resolves to a ${range} address (${address})`,
    reasonEs: `resuelve a una dirección no pública (${range}, ${address})`,
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for http(s).request that refuses names resolving to a
 * non-public address, so the address checked is the address connected to (no
 * window for DNS rebinding). `loopback` allows 127.0.0.1 and ::1 (an
 * http://localhost endpoint while WEBHOOKS_ALLOW_LOCALHOST holds).
 */
export function guardedLookup(loopback: boolean, resolve: Lookup = dns.lookup): Lookup {
  const allowed = (address: string) => (loopback && (address === '127.0.0.1' || address === '::1')) || refuseAddress(address) === null;
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allowed(a.address));
      if (refused || list.length === 0) {
        const failure: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${refused ? refused.address : 'nothing'}, which webhooks may not reach`,
        );
        failure.code = 'EADDRNOTALLOWED';
        return callback(failure, '');
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

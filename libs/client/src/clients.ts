import createClient, { type Client } from 'openapi-fetch';
import type { paths as B2bPaths } from './generated/b2b-api';
import type { paths as PayinsPaths } from './generated/payins-api';
import { ApiCredentials, signingMiddleware } from './signing';

export interface ClientOptions extends ApiCredentials {
  /** Where the API answers, e.g. http://localhost:3000 (payins) or http://localhost:3001 (B2B). */
  readonly baseUrl: string;
  /** Another fetch (a test double of the network, a proxy agent); the global one by default. */
  readonly fetch?: typeof fetch;
}

export type PayinsClient = Client<PayinsPaths>;
export type B2bClient = Client<B2bPaths>;

/**
 * A typed client of the payins API, generated from docs/openapi/payins-api.json:
 * paths, parameters, bodies and answers are checked by the compiler, and every
 * request is signed.
 *
 *     const payins = createPayinsClient({ baseUrl, apiKey, apiSecret });
 *     const { data, error } = await payins.POST('/payer', { body: { ... } });
 */
export function createPayinsClient(options: ClientOptions): PayinsClient {
  const client = createClient<PayinsPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(signingMiddleware(options));
  return client;
}

/** A typed client of the B2B API (docs/openapi/b2b-api.json), every request signed. */
export function createB2bClient(options: ClientOptions): B2bClient {
  const client = createClient<B2bPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use(signingMiddleware(options));
  return client;
}

/** An evidence file as a client has it: its name, its type (application/pdf, image/png or image/jpeg) and its bytes. */
export interface EvidenceFile {
  readonly name: string;
  readonly type: 'application/pdf' | 'image/png' | 'image/jpeg';
  readonly content: Blob | Uint8Array;
}

/**
 * Adds evidence to a dispute (contract §21): the files as multipart/form-data
 * in the field `file`, signed over the body's bytes like every request.
 * With an Idempotency-Key, a retry after a lost answer keeps nothing twice.
 *
 *     await uploadDisputeEvidence(payins, disputeId, [{ name: 'receipt.pdf', type: 'application/pdf', content: bytes }]);
 */
export function uploadDisputeEvidence(
  client: PayinsClient,
  disputeId: string,
  files: readonly EvidenceFile[],
  options: { idempotencyKey?: string } = {},
) {
  return client.POST('/dispute/{disputeId}/evidence', {
    params: { path: { disputeId } },
    ...(options.idempotencyKey ? { headers: { 'Idempotency-Key': options.idempotencyKey } } : {}),
    // The typed body names the field; the bytes are the form's.
    body: { file: files.map((file) => file.name) },
    bodySerializer: () => {
      const form = new FormData();
      for (const file of files)
        form.append('file', file.content instanceof Blob ? file.content : new Blob([file.content], { type: file.type }), file.name);
      return form;
    },
  });
}

/**
 * One worker's shared API (see environment.ts): the real payins or B2B API, built by the same factory
 * and with the same test settings as a spec's own testbed, in a process of its own, answering its Jest
 * worker over the IPC channel: a new tenant made through the real services, and the contract
 * violations its responses recorded. It ends with its worker (the channel closing).
 */
import { NestExpressApplication } from '@nestjs/platform-express';
import { createTenant, ResponseContract, takeContractViolations, testSettings } from '@pcs/testing';
import type { AddressInfo } from 'node:net';
import { createB2bApi } from '../../apps/b2b-api/src/b2b-api';
import { createPayinsApi } from '../../apps/payins-api/src/payins-api';

export type SharedApiName = 'payins-api' | 'b2b-api';
export type TenantOptions = Parameters<typeof createTenant>[1];
export type SharedApiRequest = { id: number; op: 'tenant'; options: TenantOptions } | { id: number; op: 'violations' };
export type SharedApiAnswer = { id: number; result?: unknown; error?: string } | { ready: string } | { failed: string };

async function main(api: SharedApiName): Promise<void> {
  const create = api === 'payins-api' ? createPayinsApi : createB2bApi;
  const base = api === 'payins-api' ? 'http://localhost:3000' : 'http://localhost:3001';
  const app: NestExpressApplication = await create(testSettings(base), process.env.TEST_LOG_LEVEL ?? 'silent');
  ResponseContract.forApi(api).watch(app.getHttpServer());
  await app.listen(0, '127.0.0.1');
  const answer = (message: SharedApiAnswer) => process.send?.(message);
  process.on('message', (request: SharedApiRequest) => {
    const work = request.op === 'tenant' ? createTenant(app, request.options) : Promise.resolve(takeContractViolations());
    work.then(
      (result) => answer({ id: request.id, result }),
      (error: Error) => answer({ id: request.id, error: error.stack ?? String(error) }),
    );
  });
  // The worker is gone (ended, replaced, or killed): so is its API.
  process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
  answer({ ready: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` });
}

main(process.argv[2] as SharedApiName).catch((error: Error) => {
  process.send?.({ failed: error.stack ?? String(error) });
  process.exit(1);
});

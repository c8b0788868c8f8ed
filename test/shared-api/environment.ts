/**
 * The end-to-end specs' Jest environment: Node's, plus one shared API per worker and API, for the specs
 * that need nothing of an app but its HTTP (see ../shared-testbed.ts). Jest gives every spec file a
 * module registry of its own, so an app booted inside one cannot outlive it; this module is loaded once
 * per worker process, outside the registries, and keeps the API's process from file to file. The
 * process starts when the worker's first spec asks for it and ends with the worker.
 */
import { ChildProcess, fork } from 'node:child_process';
import * as path from 'node:path';
import { TestEnvironment } from 'jest-environment-node';
import type { SharedApiAnswer, SharedApiName, SharedApiRequest } from './serve';

/** What a spec gets: where the API listens, and a call into its process. */
export interface SharedApi {
  readonly url: string;
  call(request: DistributiveOmit<SharedApiRequest, 'id'>): Promise<unknown>;
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const running = new Map<SharedApiName, Promise<SharedApi>>();

function start(api: SharedApiName, env: NodeJS.ProcessEnv): Promise<SharedApi> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(path.join(__dirname, 'serve.ts'), [api], {
      execArgv: ['--require', '@swc-node/register'],
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
    let next = 0;
    child.on('message', (message: SharedApiAnswer) => {
      if ('ready' in message) {
        resolve({
          url: message.ready,
          call: (request) =>
            new Promise((done, fail) => {
              const id = ++next;
              pending.set(id, { resolve: done, reject: fail });
              child.send({ ...request, id }, (error) => {
                if (!error) return;
                pending.delete(id);
                fail(error);
              });
            }),
        });
      } else if ('failed' in message) reject(new Error(`the shared ${api} did not start: ${message.failed}`));
      else {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result);
      }
    });
    // A process that cannot be started (or its channel broken) fails the spec that asked, and is started again by the next.
    child.on('error', (error) => {
      running.delete(api);
      reject(new Error(`the shared ${api} failed: ${error.message}`));
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    child.on('exit', (code, signal) => {
      running.delete(api);
      const gone = new Error(`the shared ${api} exited (${signal ?? code})`);
      reject(gone);
      for (const waiting of pending.values()) waiting.reject(gone);
    });
    // Not a handle that keeps the worker alive, and it goes when the worker does.
    child.unref();
    (child as unknown as { channel?: { unref(): void } }).channel?.unref();
    process.once('exit', () => child.kill());
  });
}

export default class SharedApiEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.__pcsSharedApi = (api: SharedApiName, env: NodeJS.ProcessEnv): Promise<SharedApi> => {
      let api$ = running.get(api);
      if (!api$) {
        api$ = start(api, env);
        api$.catch(() => running.delete(api));
        running.set(api, api$);
      }
      return api$;
    };
  }
}

import { DEFAULT_WEBHOOK_SETTINGS, RuntimeSettings } from '@pcs/config';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookResolver, WebhookSender } from './webhook-sender';
import type { Lookup } from './webhook-url';

/** The sender against a real local receiver; names resolve through the system, or a stand-in for DNS answers this machine cannot give. */
describe('webhook sender: addresses are checked where the socket connects', () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.headers.host ?? '');
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => hits.splice(0));

  const sender = (allowLocalhost: boolean, lookup?: Lookup) => {
    const settings = new RuntimeSettings('postgres://unused', Buffer.alloc(32), 'http://localhost', 1, undefined, undefined, undefined, {
      ...DEFAULT_WEBHOOK_SETTINGS,
      allowLocalhost,
      timeoutMs: 2000,
    });
    const resolver = new WebhookResolver();
    return new WebhookSender(settings, lookup ? { lookup } : resolver);
  };
  /** Stand-in DNS: every name resolves to `address`. */
  const resolvingTo =
    (address: string): Lookup =>
    (_hostname, _options, callback) =>
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);

  it('reaches http://localhost while localhost is allowed (the name resolves through the system)', async () => {
    const outcome = await sender(true).post(`http://localhost:${port}/hooks`, { 'webhook-id': 'x' }, '{}');
    expect(outcome).toMatchObject({ status: 204, error: null });
    expect(hits).toEqual([`localhost:${port}`]);
  });

  it('never connects to a name that resolves to loopback when localhost is not allowed', async () => {
    const outcome = await sender(false).post(`http://localhost:${port}/hooks`, {}, '{}');
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which webhooks may not reach/);
    expect(hits).toEqual([]);
  });

  it.each(['10.20.30.40', '192.168.1.20', '169.254.169.254', 'fd12::1', '127.0.0.1'])(
    'refuses a public-looking name that resolves to %s at delivery time',
    async (address) => {
      const outcome = await sender(true, resolvingTo(address)).post(`https://hooks.shop.example/in`, {}, '{}');
      expect(outcome).toMatchObject({ status: null, error: `hooks.shop.example resolves to ${address}, which webhooks may not reach` });
    },
  );

  it('passes a public address on to the connection (which this offline machine cannot complete), and refuses reserved ones', async () => {
    const outcome = await sender(false, resolvingTo('8.8.8.8')).post('https://hooks.shop.example/in', {}, '{}');
    expect(outcome.status).toBeNull();
    expect(outcome.error).not.toMatch(/may not reach/);
    const reserved = await sender(false, resolvingTo('192.0.2.1')).post('https://hooks.shop.example/in', {}, '{}');
    expect(reserved.error).toMatch(/192\.0\.2\.1, which webhooks may not reach/);
  });

  it('keeps the connection to a receiver open and reuses it for the next deliveries', async () => {
    const connections: number[] = [];
    const counting = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    counting.on('connection', () => connections.push(1));
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(counting.address() as AddressInfo).port}/hooks`;
    const one = sender(true);
    try {
      for (let i = 0; i < 5; i++) expect(await one.post(at, {}, '{}')).toMatchObject({ status: 200, error: null });
      expect(connections).toHaveLength(1);
    } finally {
      one.onModuleDestroy();
      await new Promise<void>((resolve) => counting.close(() => resolve()));
    }
  });

  it('sends again on a new connection when a kept one was closed by the receiver, but never resends on a fresh one', async () => {
    // The receiver drops every second request on a connection without answering (as one that closed an idle socket would).
    const served = new WeakMap<object, number>();
    let dropFresh = false;
    const closing = http.createServer((request, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      if (n > 1 || dropFresh) return request.socket.destroy();
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    const received: number[] = [];
    closing.on('request', () => received.push(1));
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/hooks`;
    const one = sender(true);
    try {
      expect(await one.post(at, {}, '{}')).toMatchObject({ status: 204, error: null });
      // Sent on the kept socket (dropped), then once more on a new one (answered).
      expect(await one.post(at, {}, '{}')).toMatchObject({ status: 204, error: null });
      expect(received).toHaveLength(3);
      dropFresh = true;
      one.onModuleDestroy();
      const fresh = sender(true);
      try {
        expect(await fresh.post(at, {}, '{}')).toMatchObject({ status: null, error: 'the connection was reset' });
        expect(received).toHaveLength(4);
      } finally {
        fresh.onModuleDestroy();
      }
    } finally {
      one.onModuleDestroy();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
  });
});

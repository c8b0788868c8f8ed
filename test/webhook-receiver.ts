import * as http from 'node:http';
import * as net from 'node:net';

/** One request a receiver got: the raw body as sent (what signatures cover) and its headers. */
export interface ReceivedWebhook {
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly event: { id: string; type: string; sequence: number; merchantId: string; data: { object: Record<string, unknown> } };
}

/**
 * A real HTTP server playing a merchant's webhook receiver. `answer` decides
 * the status of each request by its order (0-based); `hang` never answers.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (index: number, webhook: ReceivedWebhook) => number | 'hang' = () => 200;
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const webhook = { body, headers: request.headers as Record<string, string>, event: JSON.parse(body) };
        const status = this.answer(this.received.length, webhook);
        this.received.push(webhook);
        if (status === 'hang') return;
        response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  /** Webhooks of these types (in arrival order). */
  ofType(...types: string[]): ReceivedWebhook[] {
    return this.received.filter((webhook) => types.includes(webhook.event.type));
  }

  async waitFor(check: (received: ReceivedWebhook[]) => boolean, seconds = 30): Promise<ReceivedWebhook[]> {
    const until = Date.now() + seconds * 1000;
    while (!check(this.received) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    return this.received;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}

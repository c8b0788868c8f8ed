import * as http from 'node:http';
import * as net from 'node:net';

/**
 * What every processor stand-in shares: a server on loopback (a port of its
 * own, or the one asked for) whose connections stop() cuts, and the small
 * HTTP helpers they answer with. Imports only Node, like the stand-ins
 * (npm run stand-in loads them without a build).
 */
/**
 * How a processor stand-in behaves (contract §26's switches), for its API (the payer's pages stay up
 * unless it is down): up; slow (each answer waits `ms`, the caller's timeout may end it first);
 * failing (each request answered `status`, nothing done); losing (the work is done, then the
 * connection is cut before the answer: the caller cannot know). Down is `goDown()`: nothing listens
 * on the port, so connections are refused, until `comeBack()`.
 */
export type StandInAvailability =
  { state: 'up' } | { state: 'slow'; ms: number } | { state: 'failing'; status: number } | { state: 'losing' };

export abstract class StandInServer {
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  availability: StandInAvailability = { state: 'up' };

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops listening and cuts every connection: a caller's connection is refused (ECONNREFUSED). */
  async goDown(): Promise<void> {
    await this.stop();
    this.server = null;
  }

  /** Listens again on the same port. */
  async comeBack(): Promise<void> {
    if (this.server) return;
    await this.start(this.port);
  }

  /** The payer's pages of the processor (not its API): the switches other than down leave them alone. */
  protected isPayerPage(path: string): boolean {
    void path;
    return false;
  }

  private async dispatch(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const availability = this.availability;
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    if (availability.state === 'up' || this.isPayerPage(path)) return this.handle(request, response);
    if (availability.state === 'failing') {
      await readBody(request);
      return json(response, availability.status, { message: 'unavailable', status: availability.status });
    }
    if (availability.state === 'slow') await new Promise((resolve) => setTimeout(resolve, availability.ms));
    if (availability.state === 'losing') {
      // The work is done as usual; its answer never leaves.
      response.writeHead = () => response;
      response.end = () => {
        request.socket.destroy();
        return response;
      };
    }
    return this.handle(request, response);
  }

  async start(port = 0): Promise<this> {
    this.server = http.createServer((request, response) => void this.dispatch(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  protected abstract handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void>;
}

export function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function readBody(request: http.IncomingMessage): Promise<string> {
  return readBytes(request).then((bytes) => bytes.toString('utf8'));
}

export function readBytes(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** One part of a multipart/form-data body. */
export interface FormPart {
  readonly name: string;
  readonly fileName: string | null;
  readonly contentType: string | null;
  readonly content: Buffer;
}

/**
 * A multipart/form-data body read as RFC 7578 writes it (the stand-ins' own
 * reading, independent of the service's): the parts between the boundaries,
 * each with its Content-Disposition name and filename and its type; null when
 * the body is not well-formed (no boundary, a part without headers, no
 * closing boundary).
 */
export function readMultipart(contentType: string | undefined, body: Buffer): FormPart[] | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!/^multipart\/form-data/i.test(contentType ?? '') || !boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at !== 0) return null;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    if (body.subarray(at, at + 2).toString() !== '\r\n') return null;
    const headersEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    if (headersEnd < 0 || next < 0 || headersEnd > next) return null;
    const headers = body.subarray(at + 2, headersEnd).toString('utf8');
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      fileName: /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1].trim() ?? null,
      content: body.subarray(headersEnd + 4, next),
    });
    at = next + 2;
  }
}

/** The Luhn check of a card number's digits (what every processor's card fields check first). */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A request a processor's card fields make from the payer's browser, on another origin than the stand-in's: CORS
 * allowed, the preflight answered, the JSON body read (anything else as an empty one) and answered by `answer`.
 */
export function answerBrowser(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  body: string,
  answer: (fields: Record<string, unknown>) => [number, unknown],
): void {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type',
    'access-control-allow-methods': 'POST',
  };
  if (request.method === 'OPTIONS') {
    response.writeHead(204, cors).end();
    return;
  }
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body || '{}');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
  } catch {
    /* answered as an empty one */
  }
  const [status, answered] = answer(fields);
  response.writeHead(status, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(answered));
}

import type { Response } from 'express';

/** What a controller that writes its own answer (a server-rendered page) did with Express's response. */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  cookies: Record<string, string>;
  /** The cookies it cleared, by name. */
  cleared: string[];
  /** What `send` or `json` answered (`json`'s value as it was given). */
  body: string;
  json?: unknown;
  /** What was streamed with `write`, chunk by chunk, and whether `end` closed it. */
  chunks: string[];
  ended: boolean;
  redirect: string | null;
}

/**
 * An Express response that records what a page controller does with it
 * (status, headers, cookies, body, a stream's chunks, redirect), for specs of those controllers
 * against their services; over HTTP the end-to-end and browser specs see the
 * real one.
 */
export function recordingResponse(): { res: Response; answer: RecordedAnswer } {
  const answer: RecordedAnswer = { status: 200, headers: {}, cookies: {}, cleared: [], body: '', chunks: [], ended: false, redirect: null };
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    set(name: string | Record<string, string>, value?: string) {
      Object.assign(answer.headers, typeof name === 'string' ? { [name]: value } : name);
      return res;
    },
    cookie(name: string, value: string) {
      answer.cookies[name] = value;
      return res;
    },
    clearCookie(name: string) {
      answer.cleared.push(name);
      return res;
    },
    send(body: string) {
      answer.body = body;
      return res;
    },
    json(value: unknown) {
      answer.json = value;
      return res;
    },
    write(chunk: string) {
      answer.chunks.push(chunk);
      return true;
    },
    end() {
      answer.ended = true;
    },
    redirect(code: number, to: string) {
      answer.status = code;
      answer.redirect = to;
    },
  } as unknown as Response;
  return { res, answer };
}

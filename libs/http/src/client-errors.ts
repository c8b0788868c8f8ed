import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError } from '@pcs/kernel';
import { ApiArea, errorBodyOf, statusOf } from './error-body';

/**
 * Requests Node's HTTP parser refuses before any middleware runs (headers over
 * its limit, malformed request lines) still get the error contract's body,
 * instead of Node's bare 431 or 400 with nothing in it.
 */
export function answerClientErrorsInShape(server: Server, area: ApiArea): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const domainError = new DomainError(error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST');
    const status = statusOf(domainError);
    const body = JSON.stringify(errorBodyOf(domainError, area));
    const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

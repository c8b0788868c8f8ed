import { BadRequestException, CallHandler, ExecutionContext, Injectable, NestInterceptor, PayloadTooLargeException } from '@nestjs/common';
import { from, Observable, switchMap } from 'rxjs';
import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';

/** What a dispute may hold at most (contract §21): five files, 10 MB in all. The API checks the rest. */
export const MAX_UPLOAD_FILES = 5;
export const MAX_UPLOAD_BYTES = 10_000_000;
/** The form around the files: the CSRF token and the operation's key, nothing longer. */
const MAX_FIELD_BYTES = 200;

/** A file as the browser sent it; the payins API checks its content. */
export interface UploadedFile {
  readonly name: string;
  readonly type: string;
  readonly content: Buffer;
}

/**
 * Reads a multipart/form-data form (the evidence upload, the only one the
 * dashboard has) into `request.body`: its fields as strings and its files,
 * in memory, within the dispute's own limits. Past them the request is a 413
 * (the rest of the body is not read); a body that is not a form is a 400.
 * Called by the upload's route, so only once the session guard has checked
 * the session and the form's token, which this form carries in its action's
 * query (contract §30: nothing of an upload is read before the door).
 */
export function readMultipartForm(request: Request, response: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    parseMultipartForm(request, response, (error?: unknown) =>
      error ? reject(error instanceof Error ? error : new BadRequestException()) : resolve(),
    ),
  );
}

/** A route's multipart form read into `request.body` once the guards have let the request in (readMultipartForm). */
@Injectable()
export class MultipartFormInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return from(readMultipartForm(http.getRequest<Request>(), http.getResponse<Response>())).pipe(switchMap(() => next.handle()));
  }
}

function parseMultipartForm(request: Request, response: Response, next: NextFunction): void {
  if (!request.is('multipart/form-data')) return next(new BadRequestException());
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      defParamCharset: 'utf8',
      limits: {
        files: MAX_UPLOAD_FILES,
        fileSize: MAX_UPLOAD_BYTES,
        fields: 10,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_UPLOAD_FILES + 10,
        headerPairs: 16,
      },
    });
  } catch {
    return next(new BadRequestException());
  }
  const body: Record<string, string | UploadedFile[]> = {};
  const files: UploadedFile[] = [];
  let received = 0;
  let failure: Error | null = null;
  let done = false;
  const finish = (error: Error | null) => {
    if (done) return;
    done = true;
    request.unpipe(parser);
    if (error) {
      // The rest of the body is left unread: the answer closes the connection.
      response.setHeader('Connection', 'close');
      return next(error);
    }
    request.body = { ...body, files };
    next();
  };
  const tooLarge = () => (failure ??= new PayloadTooLargeException());
  request.on('data', (chunk: Buffer) => {
    received += chunk.length;
    // The files and a little form around them: more is refused before it is all read.
    if (received > MAX_UPLOAD_BYTES + 64 * 1024) finish(tooLarge());
  });
  parser.on('file', (field, stream, info) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', tooLarge);
    stream.on('error', () => undefined);
    stream.on('close', () => {
      const content = Buffer.concat(chunks);
      // An empty file input still sends a part without a name: nothing chosen.
      if (field !== 'file' || (!info.filename && content.length === 0)) return;
      files.push({ name: info.filename ?? '', type: info.mimeType ?? 'application/octet-stream', content });
    });
  });
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= new BadRequestException();
    else if (!(name in body) && name !== 'files') body[name] = value;
  });
  parser.on('filesLimit', tooLarge);
  parser.on('partsLimit', tooLarge);
  parser.on('fieldsLimit', () => (failure ??= new BadRequestException()));
  parser.on('error', () => finish(failure ?? new BadRequestException()));
  parser.on('close', () => finish(failure));
  request.on('error', () => finish(failure ?? new BadRequestException()));
  request.pipe(parser);
}

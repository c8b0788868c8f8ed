import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiBody, OpenAPIObject } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiDescription, buildOpenApiDocument, configureHttpApp } from './http-app';

/** Settings for building an app's route table only: preview mode instantiates no provider, so no database is needed. */
export const PREVIEW_SETTINGS = new RuntimeSettings('postgres://preview', Buffer.alloc(32), 'http://localhost');

/** An API's OpenAPI document, built from its module without a database. */
export async function previewOpenApiDocument(module: unknown, api: ApiDescription): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestExpressApplication>(module as never, { preview: true, logger: false, bodyParser: false });
  configureHttpApp(app, api);
  const document = buildOpenApiDocument(app, api);
  await app.close();
  return document;
}

/** The committed form of a document (docs/openapi/<name>.json). */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return JSON.stringify(document, null, 2) + '\n';
}

/** `npm run openapi`: each app writes its own document under docs/openapi. */
export async function writeOpenApiDocument(name: string, document: Promise<OpenAPIObject>): Promise<void> {
  const directory = path.resolve('docs/openapi');
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(directory, `${name}.json`), serializeOpenApiDocument(await document));
  process.stderr.write(`wrote docs/openapi/${name}.json\n`);
}

/**
 * The request body's example in the OpenAPI document: a body the server takes
 * as it is (test/openapi-examples.e2e-spec.ts sends every one). Ids in it are
 * examples: a request naming one that does not exist is a 404, never a 400. The
 * value's fields are the request class's (checked when compiling).
 */
export function RequestExample<T>(type: new (...args: never[]) => T, value: { [K in keyof T]?: unknown }): MethodDecorator {
  return ApiBody({ type, examples: { example: { value } } });
}

import { NestFactory } from '@nestjs/core';
import { OpenAPIObject } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { ApiDescription, buildOpenApiDocument, configureHttpApp } from '@pcs/http';
import { NestExpressApplication } from '@nestjs/platform-express';
import { B2B_API } from '../../b2b-api/src/b2b-api';
import { B2bApiModule } from '../../b2b-api/src/b2b-api.module';
import { PAYINS_API } from '../../payins-api/src/payins-api';
import { PayinsApiModule } from '../../payins-api/src/payins-api.module';

// Preview mode builds the route table without instantiating providers, so no database is needed.
const PREVIEW_SETTINGS = new RuntimeSettings('postgres://preview', Buffer.alloc(32), 'http://localhost');

async function documentOf(module: unknown, api: ApiDescription): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestExpressApplication>(module as never, { preview: true, logger: false, bodyParser: false });
  configureHttpApp(app, api);
  const document = buildOpenApiDocument(app, api);
  await app.close();
  return document;
}

/** The OpenAPI documents of both APIs, as committed under docs/openapi. */
export async function openApiDocuments(): Promise<Record<'payins-api' | 'b2b-api', OpenAPIObject>> {
  return {
    'payins-api': await documentOf(PayinsApiModule.forRoot(PREVIEW_SETTINGS), PAYINS_API),
    'b2b-api': await documentOf(B2bApiModule.forRoot(PREVIEW_SETTINGS), B2B_API),
  };
}

export function serializeDocument(document: OpenAPIObject): string {
  return JSON.stringify(document, null, 2) + '\n';
}

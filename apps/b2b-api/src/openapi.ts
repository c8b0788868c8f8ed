import 'reflect-metadata';
import { OpenAPIObject } from '@nestjs/swagger';
import { PREVIEW_SETTINGS, previewOpenApiDocument, writeOpenApiDocument } from '@pcs/http';
import { B2B_API } from './b2b-api';
import { B2bApiModule } from './b2b-api.module';

/** The B2B API's OpenAPI document, as committed under docs/openapi (`npm run openapi` writes it). */
export function b2bOpenApiDocument(): Promise<OpenAPIObject> {
  return previewOpenApiDocument(B2bApiModule.forRoot(PREVIEW_SETTINGS), B2B_API);
}

if (require.main === module) {
  writeOpenApiDocument('b2b-api', b2bOpenApiDocument()).catch((error: unknown) => {
    process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

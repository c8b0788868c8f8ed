import 'reflect-metadata';
import { OpenAPIObject } from '@nestjs/swagger';
import { PREVIEW_SETTINGS, previewOpenApiDocument, writeOpenApiDocument } from '@pcs/http';
import { PAYINS_API } from './payins-api';
import { PayinsApiModule } from './payins-api.module';

/** The payins API's OpenAPI document, as committed under docs/openapi (`npm run openapi` writes it). */
export function payinsOpenApiDocument(): Promise<OpenAPIObject> {
  return previewOpenApiDocument(PayinsApiModule.forRoot(PREVIEW_SETTINGS), PAYINS_API);
}

if (require.main === module) {
  writeOpenApiDocument('payins-api', payinsOpenApiDocument()).catch((error: unknown) => {
    process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

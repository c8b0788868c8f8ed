import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openApiDocuments, serializeDocument } from './openapi-documents';

/** `npm run openapi`: regenerates docs/openapi/*.json from the code. */
async function main(): Promise<void> {
  const directory = path.resolve('docs/openapi');
  fs.mkdirSync(directory, { recursive: true });
  for (const [name, document] of Object.entries(await openApiDocuments())) {
    fs.writeFileSync(path.join(directory, `${name}.json`), serializeDocument(document));
    process.stderr.write(`wrote docs/openapi/${name}.json\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

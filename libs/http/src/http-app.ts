import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { RuntimeSettings } from '@pcs/config';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { answerClientErrorsInShape } from './client-errors';
import { DOCS_SIGNING_SCRIPT, DOCS_SWAGGER_OPTIONS } from './docs-signing';
import { ApiArea, errorResponder } from './error-body';
import { formBodyParser, jsonBodyErrors, jsonBodyParser, inspectClientInput, requireJsonContentType, uploadBodyReader } from './json-body';
import { asOpenApi31 } from './openapi-31';
import { documentEveryAnswer, optionalBodiesOptional } from './openapi-responses';
import { describeValidatorsInSwagger } from './openapi-validation';
import { QuietStartLogger } from './quiet-start-logger';
import { observeRequests, RequestsInFlight } from './request-observer';
import { API_KEY_SCHEME, SIGNATURE_SCHEME } from './signed.decorator';

export interface ApiDescription {
  readonly area: ApiArea;
  readonly title: string;
  readonly description: string;
  readonly version: string;
  /** Where the API answers on a development machine (`npm start`): the document's `servers`. */
  readonly localUrl: string;
}

/**
 * The foundation's global pieces the benchmark can leave out, one at a time,
 * to measure what each costs a request (`npm run bench`, scenario `layers`);
 * every API runs with all of them.
 */
export type FoundationLayer = 'request-observer' | 'input-inspection' | 'request-log' | 'rate-limits';
export const FOUNDATION_LAYERS: readonly FoundationLayer[] = ['request-observer', 'input-inspection', 'request-log', 'rate-limits'];

/** Creates an API app with the body handling, docs and logger every API shares. */
export async function createHttpApp(
  module: unknown,
  api: ApiDescription,
  options: { without?: readonly FoundationLayer[] } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module as never, { bodyParser: false, bufferLogs: true });
  app.useLogger(new QuietStartLogger(app.get(Logger)));
  configureHttpApp(app, api, options);
  return app;
}

/** Each app's requests in flight, for closeGracefully. */
const inFlightOf = new WeakMap<INestApplication, RequestsInFlight>();

export function configureHttpApp(
  app: NestExpressApplication,
  api: ApiDescription,
  options: { without?: readonly FoundationLayer[] } = {},
): void {
  const respond = errorResponder(api.area);
  const without = new Set(options.without ?? []);
  app.disable('x-powered-by');
  const inFlight = new RequestsInFlight();
  inFlightOf.set(app, inFlight);
  if (!without.has('request-observer')) app.use(observeRequests(inFlight));
  app.set('query parser', 'simple');
  // The client address the per-address rate limit counts (TRUST_PROXY, contract §17).
  app.set('trust proxy', app.get(RuntimeSettings, { strict: false }).rateLimits.trustProxy);
  app.use(formBodyParser());
  app.use(
    uploadBodyReader(),
    requireJsonContentType(respond),
    ...jsonBodyParser(),
    jsonBodyErrors(respond),
    ...(without.has('input-inspection') ? [] : [inspectClientInput(respond)]),
  );
  answerClientErrorsInShape(app.getHttpServer(), api.area);
  // Served from the API itself, "Try it out" goes to the address the page was opened at, whatever its host and port.
  SwaggerModule.setup('docs', app, () => ({ ...buildOpenApiDocument(app, api), servers: [{ url: '/', description: 'this API' }] }), {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: `${api.title}: reference`,
    customJsStr: DOCS_SIGNING_SCRIPT,
    swaggerOptions: DOCS_SWAGGER_OPTIONS,
  });
}

/**
 * Closes an app as a deployment stops it (SIGTERM): the requests in flight
 * answer first (at most `drainMs`; a client that left still has its work
 * finished), then the app closes — its server, its workers, then its
 * database pool. The server keeps taking connections while it drains:
 * closing the listening socket first resets the connections the kernel has
 * accepted for it and the busy process has not taken yet (seen in a test);
 * a deployment stops sending before it signals.
 */
export async function closeGracefully(app: INestApplication, drainMs: number, log: (line: string) => void = () => {}): Promise<void> {
  const inFlight = inFlightOf.get(app);
  if (inFlight && !(await inFlight.drained(drainMs))) log(`requests still in flight after ${drainMs} ms: closing anyway`);
  await app.close();
}

export function buildOpenApiDocument(app: INestApplication, api: ApiDescription): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(api.title)
    .setDescription(api.description)
    .setVersion(api.version)
    .setOpenAPIVersion('3.1.0')
    .addServer(api.localUrl, 'npm start on this machine')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'api-key',
        description:
          'API key of a business or a merchant (versions 1 and 2). Version 3 (RFC 9421, contract §29) names the key in `keyid` of `Signature-Input` instead: ' +
          'see docs/integration.md. On the /docs page, enter the api-key here.',
      },
      API_KEY_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'signature',
        description:
          'Version 3 (recommended, and required where an operation says `x-signature-version: 3`): RFC 9421 HTTP Message Signatures with HMAC-SHA256, ' +
          '`Signature: pcs=:<base64>:` with `Signature-Input` (`@method`, `@path`, `@query`, `content-digest`; created, nonce, keyid, alg) and ' +
          'RFC 9530 `Content-Digest`. Version 1: lowercase hex HMAC-SHA256 of the body as sent (`{}` without a body), keyed with the API secret; ' +
          'version 2 adds a `timestamp` header and signs `<timestamp>.<body>`. ' +
          'On the /docs page, enter the API secret itself here: the page signs each request version 3 in the browser and sends only the signature.',
      },
      SIGNATURE_SCHEME,
    )
    .build();
  describeValidatorsInSwagger();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  // The unsigned routes say so: no security requirement at all (not "unspecified").
  for (const route of ['/health', '/metrics']) {
    const operation = document.paths[route]?.get;
    if (operation) operation.security = [];
  }
  return asOpenApi31(optionalBodiesOptional(documentEveryAnswer(document)));
}

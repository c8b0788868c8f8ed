import { loadDotEnv } from '@pcs/config';
import { startTracing } from '@pcs/observability/tracing';

// First of main.ts's imports: the instrumented modules (http, express, Nest, pg) load after this (docs/operations.md, "Tracing").
loadDotEnv();
startTracing('b2b-api');

import './tracing';
import 'reflect-metadata';
import { serveStandalone } from '@pcs/http';
import { createB2bApi } from './b2b-api';

serveStandalone('b2b-api', (env) => env.B2B_API_PORT, createB2bApi);

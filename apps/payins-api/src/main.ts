import './tracing';
import 'reflect-metadata';
import { serveStandalone } from '@pcs/http';
import { createPayinsApi } from './payins-api';

serveStandalone('payins-api', (env) => env.PAYINS_API_PORT, createPayinsApi);

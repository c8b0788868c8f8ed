import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Loads `.env` from the working directory into process.env without
 * overriding variables that are already set (Node's own parser).
 */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

import { takeAllContractViolations } from './response-contract';

/**
 * Run with every end-to-end spec (jest setupFilesAfterEnv): a response that
 * broke the committed OpenAPI document fails the test that caused it; one
 * sent while setting up (beforeAll) fails the first test after it, and one
 * sent while cleaning up (afterAll) fails the spec. A worker's shared API
 * checks its answers in its own process and hands its violations over here.
 */
async function failOnViolations(): Promise<void> {
  const violations = await takeAllContractViolations();
  if (violations.length === 0) return;
  const lines = violations.slice(0, 20).map((v) => `  ${v.request} → ${v.status}: ${v.problem}`);
  throw new Error(`responses that do not match docs/openapi (${violations.length}):\n${lines.join('\n')}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);

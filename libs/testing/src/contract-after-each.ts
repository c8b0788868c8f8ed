import { takeContractViolations } from './response-contract';

/**
 * Run after each end-to-end test (jest setupFilesAfterEnv): a response that
 * broke the committed OpenAPI document during the test fails that test.
 */
beforeEach(() => {
  takeContractViolations();
});

afterEach(() => {
  const violations = takeContractViolations();
  if (violations.length === 0) return;
  const lines = violations.slice(0, 20).map((v) => `  ${v.request} → ${v.status}: ${v.problem}`);
  throw new Error(`responses that do not match docs/openapi (${violations.length}):\n${lines.join('\n')}`);
});

import { prettyLogs } from './http-foundation.module';

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON on a pipe by default, and does what it is told otherwise', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });
});

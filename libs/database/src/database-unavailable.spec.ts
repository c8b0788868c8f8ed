import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

/** What decides between a 503 (the database is away) and a 500 (our fault) or a 4xx (the request's). */
describe('isDatabaseUnavailable', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', coded('ECONNRESET')],
    ['a server shutting down (57P01)', coded('57P01', 'terminating connection due to administrator command')],
    ['a server that crashed (57P02)', coded('57P02')],
    ['a server still starting (57P03)', coded('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', coded('08006')],
    ['too many connections (53300)', coded('53300')],
    ['a write that reached a standby (25006)', coded('25006', 'cannot execute INSERT in a read-only transaction')],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly')],
    ['no connection within the timeout', new Error('timeout exceeded when trying to connect')],
    ['a client broken earlier', new Error('Client has encountered a connection error and is not queryable')],
    ['TypeORM wrapping a refused connection', Object.assign(new Error('query failed'), { driverError: coded('ECONNREFUSED') })],
    [
      'a transaction whose connection broke between statements (TypeORM released its runner)',
      new QueryRunnerProviderAlreadyReleasedError(),
    ],
    ['a statement on a runner TypeORM released when its connection broke', new QueryRunnerAlreadyReleasedError()],
    ['every address refused (AggregateError)', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed')],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', coded('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error in our SQL (42601)', coded('42601')],
    ['a statement timeout (57014): the database answered', coded('57014', 'canceling statement due to statement timeout')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['TypeORM wrapping a constraint failure', Object.assign(new Error('query failed'), { driverError: coded('23503') })],
    ['a failed outside call (fetch: a TypeError whose cause is ENOTFOUND)', new TypeError('fetch failed', { cause: coded('ENOTFOUND') })],
    ['a value that is not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

import { ERRORS, ErrorCode, ErrorDefinition } from './error-catalogue';

export type ErrorParams = Readonly<Record<string, string | number>>;

/**
 * A broken business rule. Carries a stable code from the catalogue, a
 * technical message for the `message` field, and the parameters that fill
 * the user-facing texts. Never carries secrets or internals.
 */
export class DomainError extends Error {
  readonly definition: ErrorDefinition;

  constructor(
    code: ErrorCode,
    message?: string,
    readonly params: ErrorParams = {},
  ) {
    const definition = ERRORS[code];
    super(message ?? fill(definition.en, params));
    this.definition = definition;
    this.name = 'DomainError';
  }

  get code(): ErrorCode {
    return this.definition.code as ErrorCode;
  }

  /** The same failure reported under another catalogue code (e.g. an operation's fixed errorId). */
  recode(code: ErrorCode): DomainError {
    const { EN, ES } = this.texts();
    return new DomainError(code, this.message, { ...this.params, reason: asClause(EN), reasonEs: asClause(ES) });
  }

  texts(): { EN: string; ES: string } {
    return { EN: fill(this.definition.en, this.params), ES: fill(this.definition.es, this.params) };
  }
}

/** "The request is not valid." → "the request is not valid", to continue another sentence. */
function asClause(sentence: string): string {
  const trimmed = sentence.trim().replace(/\.$/, '');
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

function fill(template: string, params: ErrorParams): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => (key in params ? String(params[key]) : ''));
}

/** Raised when a request's input breaks a rule; names the offending fields. */
export class InvalidRequestError extends DomainError {
  constructor(
    readonly fields: readonly string[],
    detail: string,
  ) {
    super('INVALID_REQUEST', detail, { fields: fields.join(', ') });
  }
}

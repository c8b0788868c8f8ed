import { ERROR_CATALOGUE } from './error-catalogue';
import { DomainError } from './domain-error';

describe('error catalogue', () => {
  it('gives every code a real English and Spanish text', () => {
    for (const definition of ERROR_CATALOGUE) {
      expect(definition.en.length).toBeGreaterThan(10);
      expect(definition.es.length).toBeGreaterThan(10);
      expect(definition.es).not.toBe(definition.en);
      expect(definition.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });

  it('has unique codes', () => {
    const codes = ERROR_CATALOGUE.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('recodes an invalid request under an operation code, keeping the named fields in both languages', () => {
    const recoded = new DomainError('INVALID_REQUEST', 'shortName: too long', { fields: 'shortName' }).recode(
      'ERROR_IN_UPDATE_MERCHANT_CONFIGURATION',
    );
    expect(recoded.code).toBe('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    expect(recoded.message).toBe('shortName: too long');
    expect(recoded.texts().EN).toBe(
      'The merchant configuration could not be saved: the request is not valid. Check these fields: shortName.',
    );
    expect(recoded.texts().ES).toBe(
      'No se pudo guardar la configuración del comercio: la solicitud no es válida. Revise estos campos: shortName.',
    );
  });
});

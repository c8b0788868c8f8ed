import { asBusinessId, asMerchantId, asPayerId, DocumentType, DomainError } from '@pcs/kernel';
import { Payer } from './payer';

const now = new Date('2026-11-01T00:00:00Z');
const ids = { payerId: asPayerId('p'), businessId: asBusinessId('b'), merchantId: asMerchantId('m') };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'other';
  }
  return undefined;
};

describe('Payer', () => {
  it('completes only what is missing, never overwriting', () => {
    const payer = Payer.create(ids, { firstName: 'Ana', email: 'ana@x.uy' }, now);
    payer.complete(
      { firstName: 'Other', lastName: 'Gómez', email: 'other@x.uy', documentType: DocumentType.DNI, documentNumber: '30123456' },
      now,
    );
    expect(payer.snapshot()).toMatchObject({
      firstName: 'Ana',
      lastName: 'Gómez',
      email: 'ana@x.uy',
      documentType: 'DNI',
      documentNumber: '30123456',
    });
  });

  it('refuses to complete with a different document than the one on file', () => {
    const payer = Payer.create(ids, { documentType: DocumentType.DNI, documentNumber: '30123456' }, now);
    expect(codeOf(() => payer.complete({ documentType: DocumentType.DNI, documentNumber: '30123457' }, now))).toBe(
      'PAYER_DOCUMENT_MISMATCH',
    );
    expect(codeOf(() => payer.complete({ documentType: DocumentType.PASSPORT, documentNumber: '30123456' }, now))).toBe(
      'PAYER_DOCUMENT_MISMATCH',
    );
    expect(
      codeOf(() => payer.complete({ documentType: DocumentType.DNI, documentNumber: '30123456', phone: '+598991' }, now)),
    ).toBeUndefined();
  });

  it('is gone for every change once deleted', () => {
    const payer = Payer.create(ids, {}, now);
    payer.delete(now);
    expect(codeOf(() => payer.update({ email: 'a@b.uy' }, now))).toBe('PAYER_NOT_FOUND');
    expect(codeOf(() => payer.complete({ email: 'a@b.uy' }, now))).toBe('PAYER_NOT_FOUND');
    expect(codeOf(() => payer.delete(now))).toBe('PAYER_NOT_FOUND');
  });
});

import { DomainError } from '@pcs/kernel';
import { jpegFile, pdfFile, pngFile } from '@pcs/testing';
import { assertWithinEvidenceLimits, checkEvidenceFile, evidenceFileName, sniffEvidenceType } from './evidence-rules';

const reasonOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return String((error as DomainError).params?.reason);
  }
  return 'accepted';
};

describe('evidence files (contract §21)', () => {
  it('knows PDF, PNG and JPEG by their content and structure, and nothing else', () => {
    expect(sniffEvidenceType(pdfFile())).toBe('application/pdf');
    expect(sniffEvidenceType(pngFile())).toBe('image/png');
    expect(sniffEvidenceType(jpegFile())).toBe('image/jpeg');
    expect(sniffEvidenceType(Buffer.from('GIF89a................'))).toBeNull();
    expect(sniffEvidenceType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    // Truncated: the header is there, the end is not.
    expect(sniffEvidenceType(pdfFile().subarray(0, 100))).toBeNull();
    expect(sniffEvidenceType(pngFile().subarray(0, 40))).toBeNull();
    expect(sniffEvidenceType(jpegFile().subarray(0, 100))).toBeNull();
  });

  it('keeps a name’s last segment and refuses control characters or a name of more than 255 characters', () => {
    expect(evidenceFileName('C:\\fakepath\\recibo.pdf')).toBe('recibo.pdf');
    expect(evidenceFileName('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(evidenceFileName(' factura 001.pdf ')).toBe('factura 001.pdf');
    expect(reasonOf(() => evidenceFileName('a\u0000b.pdf'))).toMatch(/control characters/);
    expect(reasonOf(() => evidenceFileName(`${'x'.repeat(252)}.pdf`))).toMatch(/255/);
    expect(reasonOf(() => evidenceFileName('dir/'))).toMatch(/no name/);
  });

  it('needs the declared type and the extension to say what the content is', () => {
    expect(checkEvidenceFile({ fileName: 'r.PDF', declaredType: 'application/pdf; charset=binary', content: pdfFile() })).toEqual({
      fileName: 'r.PDF',
      contentType: 'application/pdf',
    });
    expect(checkEvidenceFile({ fileName: 'scan', declaredType: 'image/jpeg', content: jpegFile() }).contentType).toBe('image/jpeg');
    expect(checkEvidenceFile({ fileName: 'photo.jpeg', declaredType: 'IMAGE/JPEG', content: jpegFile() }).contentType).toBe('image/jpeg');
    expect(reasonOf(() => checkEvidenceFile({ fileName: 'r.pdf', declaredType: '', content: pdfFile() }))).toMatch(
      /declared without a type/,
    );
    expect(reasonOf(() => checkEvidenceFile({ fileName: 'r.png', declaredType: 'image/png', content: jpegFile() }))).toMatch(
      /declared image\/png but its content is image\/jpeg/,
    );
    expect(reasonOf(() => checkEvidenceFile({ fileName: 'r.exe', declaredType: 'image/png', content: pngFile() }))).toMatch(/named \.exe/);
  });

  it('keeps a dispute within five files and 10 MB, counting what it already holds', () => {
    const file = (size: number) => ({ content: Buffer.alloc(size) });
    expect(reasonOf(() => assertWithinEvidenceLimits([{ size: 1 }, { size: 1 }], [file(1), file(1), file(1)]))).toBe('accepted');
    expect(reasonOf(() => assertWithinEvidenceLimits([{ size: 1 }, { size: 1 }], [file(1), file(1), file(1), file(1)]))).toMatch(
      /at most 5 files \(it has 2, 4 sent\)/,
    );
    expect(reasonOf(() => assertWithinEvidenceLimits([{ size: 4_000_000 }], [file(6_000_000)]))).toBe('accepted');
    expect(reasonOf(() => assertWithinEvidenceLimits([{ size: 4_000_000 }], [file(6_000_001)]))).toMatch(/10 MB in all/);
  });
});

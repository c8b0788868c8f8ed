import { DomainError } from '@pcs/kernel';
import { EvidenceFile, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_FILES } from './dispute';

export type EvidenceType = EvidenceFile['contentType'];

/** An uploaded file before it is kept: its name and declared type as sent, and its bytes. */
export interface UploadedFile {
  readonly fileName: string;
  readonly declaredType: string;
  readonly content: Buffer;
}

/** The extensions a name of each type may have (a name without one is fine: the content decides). */
const EXTENSIONS: Record<EvidenceType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
};

/** A 400 Payins:INVALID_EVIDENCE saying why, in both languages. */
export function invalidEvidence(reason: string, reasonEs: string): DomainError {
  return new DomainError('INVALID_EVIDENCE', `the evidence was not accepted: ${reason}`, {
    reason,
    reasonEs,
    maxFiles: MAX_EVIDENCE_FILES,
    maxMegabytes: MAX_EVIDENCE_BYTES / 1_000_000,
  });
}

/**
 * What a file's bytes are, read from its content and structure, never its
 * name: a PDF (header `%PDF-1.x` or `%PDF-2.x` and an `%%EOF` at its end), a
 * PNG (signature, IHDR first, IEND last) or a JPEG (SOI marker first, EOI at
 * its end). A truncated file of any of them is none of them.
 */
export function sniffEvidenceType(content: Buffer): EvidenceType | null {
  if (content.length >= 16 && /^%PDF-[12]\.\d/.test(content.subarray(0, 8).toString('latin1'))) {
    const tail = content.subarray(Math.max(0, content.length - 1024)).toString('latin1');
    return /%%EOF\s*$/.test(tail) ? 'application/pdf' : null;
  }
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (content.length >= 8 + 25 + 12 && content.subarray(0, 8).equals(PNG)) {
    const ihdr = content.readUInt32BE(8) === 13 && content.subarray(12, 16).toString('latin1') === 'IHDR';
    const iend = content.subarray(content.length - 12).equals(Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]));
    return ihdr && iend ? 'image/png' : null;
  }
  if (content.length >= 4 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) {
    // The end-of-image marker ends the file (a few bytes of padding after it are common).
    const tail = content.subarray(Math.max(3, content.length - 64));
    for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return 'image/jpeg';
    return null;
  }
  return null;
}

/** A file name as kept: its last path segment, trimmed; 1–255 characters of printable text. */
export function evidenceFileName(raw: string): string {
  const name = raw.split(/[\\/]/).pop()!.trim();
  if (name.length === 0) throw invalidEvidence('a file has no name', 'un archivo no tiene nombre');
  // eslint-disable-next-line no-control-regex
  if (name.length > 255 || /[\u0000-\u001f\u007f]/.test(name))
    throw invalidEvidence(
      'a file name is longer than 255 characters or has control characters',
      'un nombre de archivo supera 255 caracteres o tiene caracteres de control',
    );
  return name;
}

/**
 * One uploaded file checked (contract §21): PDF, PNG or JPEG by its content,
 * declared as that type, and with a name whose extension, if it has one,
 * says the same. Its kept name and type.
 */
export function checkEvidenceFile(file: UploadedFile): { fileName: string; contentType: EvidenceType } {
  const fileName = evidenceFileName(file.fileName);
  if (file.content.length === 0) throw invalidEvidence(`${fileName} is empty`, `${fileName} está vacío`);
  const type = sniffEvidenceType(file.content);
  if (!type)
    throw invalidEvidence(`${fileName} is not a complete PDF, PNG or JPEG file`, `${fileName} no es un archivo PDF, PNG o JPEG completo`);
  const declared = file.declaredType.split(';')[0].trim().toLowerCase();
  if (declared !== type)
    throw invalidEvidence(
      `${fileName} is declared ${declared || 'without a type'} but its content is ${type}`,
      `${fileName} se declara ${declared || 'sin tipo'} pero su contenido es ${type}`,
    );
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(fileName)?.[1].toLowerCase();
  if (extension !== undefined && !EXTENSIONS[type].includes(extension))
    throw invalidEvidence(
      `${fileName} is named .${extension} but its content is ${type}`,
      `${fileName} se llama .${extension} pero su contenido es ${type}`,
    );
  return { fileName, contentType: type };
}

/** The dispute's files with these added stay within five files and 10 MB. */
export function assertWithinEvidenceLimits(kept: readonly Pick<EvidenceFile, 'size'>[], added: readonly { content: Buffer }[]): void {
  if (kept.length + added.length > MAX_EVIDENCE_FILES)
    throw invalidEvidence(
      `a dispute takes at most ${MAX_EVIDENCE_FILES} files (it has ${kept.length}, ${added.length} sent)`,
      `una disputa admite como máximo ${MAX_EVIDENCE_FILES} archivos (tiene ${kept.length}, se enviaron ${added.length})`,
    );
  const bytes = kept.reduce((sum, f) => sum + f.size, 0) + added.reduce((sum, f) => sum + f.content.length, 0);
  if (bytes > MAX_EVIDENCE_BYTES)
    throw invalidEvidence(
      `a dispute's files take at most ${MAX_EVIDENCE_BYTES / 1_000_000} MB in all (${(bytes / 1_000_000).toFixed(1)} MB with these)`,
      `los archivos de una disputa suman como máximo ${MAX_EVIDENCE_BYTES / 1_000_000} MB (${(bytes / 1_000_000).toFixed(1)} MB con estos)`,
    );
}

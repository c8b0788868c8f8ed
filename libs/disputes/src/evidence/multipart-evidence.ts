import busboy from 'busboy';
import { invalidEvidence, UploadedFile } from '../domain/evidence-rules';
import { MAX_EVIDENCE_BYTES, MAX_EVIDENCE_FILES } from '../domain/dispute';

/** The field that carries evidence files (contract §21). */
export const EVIDENCE_FIELD = 'file';

/**
 * The files of a multipart/form-data body, read whole from memory by busboy
 * (the body was read, and its signature verified, first). Only parts named
 * `file` with a file name; any other part, more than five files, one larger
 * than the dispute's limit, or a body that ends before its closing boundary
 * is a 400 Payins:INVALID_EVIDENCE, and nothing is kept.
 */
export function readEvidenceParts(contentType: string | undefined, body: Buffer): Promise<UploadedFile[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType ?? '' },
        defParamCharset: 'utf8',
        limits: { files: MAX_EVIDENCE_FILES, fileSize: MAX_EVIDENCE_BYTES, fields: 0, parts: MAX_EVIDENCE_FILES, headerPairs: 16 },
      });
    } catch {
      return reject(
        invalidEvidence('the body is not multipart/form-data with a boundary', 'el cuerpo no es multipart/form-data con un boundary'),
      );
    }
    const files: UploadedFile[] = [];
    let refusal: Error | null = null;
    const refuse = (error: Error) => {
      refusal ??= error;
    };
    parser.on('file', (field: string | undefined, stream, info) => {
      // A part whose Content-Disposition has no name reaches here with none (contract §27): refused, never a 500.
      const name = typeof field === 'string' ? field : '';
      const chunks: Buffer[] = [];
      if (name !== EVIDENCE_FIELD)
        refuse(
          invalidEvidence(
            `files go in the field \`file\`, not \`${name.slice(0, 40)}\``,
            `los archivos van en el campo \`file\`, no en \`${name.slice(0, 40)}\``,
          ),
        );
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body that ends inside a file fails the file's stream too (the parser's own error says so).
      stream.on('error', () => undefined);
      stream.on('limit', () =>
        refuse(
          invalidEvidence(
            `${info.filename ?? 'a file'} is larger than ${MAX_EVIDENCE_BYTES / 1_000_000} MB`,
            `${info.filename ?? 'un archivo'} supera ${MAX_EVIDENCE_BYTES / 1_000_000} MB`,
          ),
        ),
      );
      stream.on('close', () =>
        files.push({ fileName: info.filename ?? '', declaredType: info.mimeType ?? '', content: Buffer.concat(chunks) }),
      );
    });
    parser.on('field', (field: string | undefined) =>
      refuse(
        invalidEvidence(
          `only files are taken, \`${String(field ?? '').slice(0, 40)}\` is not one`,
          `solo se aceptan archivos, \`${String(field ?? '').slice(0, 40)}\` no lo es`,
        ),
      ),
    );
    parser.on('fieldsLimit', () =>
      refuse(invalidEvidence('only files are taken, in the field `file`', 'solo se aceptan archivos, en el campo `file`')),
    );
    const tooMany = () =>
      refuse(
        invalidEvidence(
          `at most ${MAX_EVIDENCE_FILES} files are taken per dispute`,
          `se aceptan como máximo ${MAX_EVIDENCE_FILES} archivos por disputa`,
        ),
      );
    parser.on('filesLimit', tooMany);
    parser.on('partsLimit', tooMany);
    parser.on('error', () =>
      reject(
        refusal ?? invalidEvidence('the multipart body is malformed or incomplete', 'el cuerpo multipart está mal formado o incompleto'),
      ),
    );
    parser.on('close', () => {
      if (refusal) return reject(refusal);
      if (files.length === 0)
        return reject(invalidEvidence('no file was sent in the field `file`', 'no se envió ningún archivo en el campo `file`'));
      resolve(files);
    });
    parser.end(body);
  });
}

/*
 * Why one file: a CNAB 240 remittance and its return, record by record in the order of FEBRABAN's layout.
 */
/**
 * A FEBRABAN CNAB 240 remittance of payments ("remessa de pagamentos",
 * service 20, Pagamento Fornecedor) for a business's payouts to Brazilian
 * accounts (contract §24).
 *
 * Positions: FEBRABAN "Layout Padrão Febraban 240 posições" V08.6 (file
 * header and trailer, §2.2; batch header, segments A and B and batch trailer
 * of §3.1.2, "Pagamento através de crédito em conta, cheque, OP, DOC, TED
 * ou pagamento com autenticação"), which later versions keep for these
 * records. PIX transfers are FEBRABAN's later addition (version 10): batch
 * form 45 (PIX Transferência), clearing house 009 (SPI) in segment A, and in
 * segment B the "Forma de Iniciação" (G100) at 15–17 and the key in
 * "Informação 12" at 128–226. The file declares that version: file layout
 * 103, batch layout 046 (V10.3). docs/money.md has the table of what we
 * write where; the test reads every record back by these positions.
 *
 * Alphanumeric fields are upper case without accents, left-aligned and
 * blank-filled; numeric ones right-aligned and zero-filled; lines are 240
 * characters ending in CRLF.
 */
import type { LocalDate } from '@pcs/kernel';

export const CNAB240_FILE_LAYOUT = '103';
export const CNAB240_BATCH_LAYOUT = '046';

/** The paying company (FEBRABAN's "empresa") and its account at the bank the file goes to. */
export interface Cnab240Debtor {
  /** The bank's COMPE code (3 digits): the bank the file is sent to. */
  readonly bankCode: string;
  readonly bankName: string;
  /** CNPJ (14 digits) or CPF (11). */
  readonly document: string;
  readonly name: string;
  /** The agreement code the bank gave the company (convênio), up to 20 characters. */
  readonly agreement: string;
  readonly branch: string;
  readonly branchDigit: string;
  readonly account: string;
  readonly accountDigit: string;
}

export type PixKeyKind = 'PHONE' | 'EMAIL' | 'CPF' | 'CNPJ' | 'EVP';

/** Where one payment goes: an account (branch and account) or a PIX key. */
export type Cnab240Beneficiary = {
  readonly name: string;
  /** CPF or CNPJ digits, or null when unknown. */
  readonly document: string | null;
} & (
  | {
      readonly bankCode: string;
      readonly branch: string;
      readonly branchDigit: string;
      readonly account: string;
      readonly accountDigit: string;
      readonly savings: boolean;
    }
  | { readonly pixKey: string; readonly pixKind: PixKeyKind }
);

export interface Cnab240Payment {
  /** Our reference (FEBRABAN's "seu número"), up to 20 characters: the bank's return names it. */
  readonly reference: string;
  /** Centavos. */
  readonly amount: number;
  readonly beneficiary: Cnab240Beneficiary;
}

export interface Cnab240Remittance {
  readonly debtor: Cnab240Debtor;
  /** The file's sequence number (NSA), from 1, one more for each file of the company. */
  readonly sequence: number;
  /** When it was generated, in Brasília's time: `YYYY-MM-DD` and `HH:MM:SS`. */
  readonly generatedOn: LocalDate;
  readonly generatedAt: string;
  /** The day the payments are to be made (a business day). */
  readonly paymentDate: LocalDate;
  readonly payments: readonly Cnab240Payment[];
}

/** The batch form (G029) of a payment: a credit at the paying bank, a TED to another bank, or a PIX transfer. */
export function formOf(debtor: Cnab240Debtor, beneficiary: Cnab240Beneficiary): '01' | '05' | '41' | '45' {
  if ('pixKey' in beneficiary) return '45';
  if (beneficiary.bankCode !== debtor.bankCode) return '41';
  return beneficiary.savings ? '05' : '01';
}

/** G100, Forma de Iniciação of a PIX transfer by key. */
const PIX_INITIATION: Record<PixKeyKind, string> = { PHONE: '01', EMAIL: '02', CPF: '03', CNPJ: '03', EVP: '04' };

/** A 240-character record written by FEBRABAN's positions (1-based, inclusive). */
class Record240 {
  private readonly chars = Array<string>(240).fill(' ');

  /** A numeric field: digits, right-aligned, zero-filled; longer is a programming error. */
  num(from: number, to: number, value: number | string): this {
    const digits = typeof value === 'number' ? String(value) : value;
    if (!/^\d*$/.test(digits)) throw new Error(`CNAB 240 ${from}-${to}: "${digits}" is not numeric`);
    return this.put(from, to, digits.padStart(to - from + 1, '0'));
  }

  /** An alphanumeric field: upper case without accents, left-aligned, blank-filled, cut to its size. */
  alfa(from: number, to: number, value: string): this {
    return this.put(
      from,
      to,
      plain(value)
        .slice(0, to - from + 1)
        .padEnd(to - from + 1, ' '),
    );
  }

  /** An alphanumeric field kept as written (a PIX key: e-mails are lower case in the DICT). */
  raw(from: number, to: number, value: string): this {
    return this.put(
      from,
      to,
      ascii(value)
        .slice(0, to - from + 1)
        .padEnd(to - from + 1, ' '),
    );
  }

  toString(): string {
    return this.chars.join('');
  }

  private put(from: number, to: number, text: string): this {
    if (text.length !== to - from + 1) throw new Error(`CNAB 240 ${from}-${to}: "${text}" does not fit ${to - from + 1} positions`);
    for (let i = 0; i < to - from + 1; i++) this.chars[from - 1 + i] = text[i];
    return this;
  }
}

function ascii(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ');
}

function plain(value: string): string {
  return ascii(value)
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ');
}

/** DDMMAAAA (G016, P009). */
function ddmmaaaa(date: LocalDate): string {
  const [year, month, day] = date.split('-');
  return `${day}${month}${year}`;
}

function documentType(document: string | null): '0' | '1' | '2' {
  if (document === null) return '0';
  return document.length === 14 ? '2' : '1';
}

/** The remittance file's text: file header, one batch per form (credit, savings credit, TED, PIX), file trailer. */
export function cnab240Remittance(input: Cnab240Remittance): string {
  const { debtor } = input;
  const company = (r: Record240) =>
    r
      .num(18, 18, documentType(debtor.document))
      .num(19, 32, debtor.document)
      .alfa(33, 52, debtor.agreement)
      .num(53, 57, debtor.branch)
      .alfa(58, 58, debtor.branchDigit)
      .num(59, 70, debtor.account)
      .alfa(71, 71, debtor.accountDigit)
      .alfa(72, 72, '');

  const records: string[] = [];
  // Header de Arquivo (§2.2).
  records.push(
    company(new Record240().num(1, 3, debtor.bankCode).num(4, 7, '0000').num(8, 8, '0').alfa(9, 17, ''))
      .alfa(73, 102, debtor.name)
      .alfa(103, 132, debtor.bankName)
      .alfa(133, 142, '')
      .num(143, 143, '1')
      .num(144, 151, ddmmaaaa(input.generatedOn))
      .num(152, 157, input.generatedAt.replace(/:/g, ''))
      .num(158, 163, input.sequence)
      .num(164, 166, CNAB240_FILE_LAYOUT)
      .num(167, 171, 1600)
      .alfa(172, 191, '')
      .alfa(192, 211, '')
      .alfa(212, 240, '')
      .toString(),
  );

  const forms = ['01', '05', '41', '45'] as const;
  let batchNumber = 0;
  for (const form of forms) {
    const payments = input.payments.filter((p) => formOf(debtor, p.beneficiary) === form);
    if (payments.length === 0) continue;
    batchNumber += 1;
    const batch = (r: Record240) => r.num(1, 3, debtor.bankCode).num(4, 7, batchNumber);
    // Header de Lote (§3.1.2).
    records.push(
      company(batch(new Record240()).num(8, 8, '1').alfa(9, 9, 'C').num(10, 11, '20').num(12, 13, form))
        .num(14, 16, CNAB240_BATCH_LAYOUT)
        .alfa(17, 17, '')
        .alfa(73, 102, debtor.name)
        .alfa(103, 142, '')
        .alfa(143, 172, '')
        .num(173, 177, 0)
        .alfa(178, 192, '')
        .alfa(193, 212, '')
        .num(213, 217, 0)
        .alfa(218, 220, '')
        .alfa(221, 222, '')
        .num(223, 224, 0)
        .alfa(225, 230, '')
        .alfa(231, 240, '')
        .toString(),
    );
    let sequence = 0;
    let total = 0;
    for (const payment of payments) {
      const b = payment.beneficiary;
      total += payment.amount;
      // Segmento A: the credit.
      const a = batch(new Record240())
        .num(8, 8, '3')
        .num(9, 13, ++sequence)
        .alfa(14, 14, 'A')
        .num(15, 15, '0')
        .num(16, 17, '00')
        .num(18, 20, form === '41' ? '018' : form === '45' ? '009' : '000');
      if ('pixKey' in b) a.num(21, 23, 0).num(24, 28, 0).alfa(29, 29, '').num(30, 41, 0).alfa(42, 42, '').alfa(43, 43, '');
      else
        a.num(21, 23, b.bankCode)
          .num(24, 28, b.branch)
          .alfa(29, 29, b.branchDigit)
          .num(30, 41, b.account)
          .alfa(42, 42, b.accountDigit)
          .alfa(43, 43, '');
      records.push(
        a
          .alfa(44, 73, b.name)
          .alfa(74, 93, payment.reference)
          .num(94, 101, ddmmaaaa(input.paymentDate))
          .alfa(102, 104, 'BRL')
          .num(105, 119, 0)
          .num(120, 134, payment.amount)
          .alfa(135, 154, '')
          .num(155, 162, 0)
          .num(163, 177, 0)
          .alfa(178, 217, '')
          .alfa(218, 219, '')
          .alfa(220, 224, form === '41' ? '00010' : '')
          .alfa(225, 226, '')
          .alfa(227, 229, '')
          .num(230, 230, '0')
          .alfa(231, 240, '')
          .toString(),
      );
      // Segmento B: who the beneficiary is (mandatory for TED) and, for PIX, how the transfer is initiated and the key.
      const segmentB = batch(new Record240())
        .num(8, 8, '3')
        .num(9, 13, ++sequence)
        .alfa(14, 14, 'B')
        .num(18, 18, documentType(b.document))
        .num(19, 32, b.document ?? '');
      if ('pixKey' in b)
        segmentB
          .alfa(15, 17, PIX_INITIATION[b.pixKind])
          .alfa(33, 67, '')
          .alfa(68, 127, '')
          .raw(128, 226, b.pixKey)
          .num(227, 232, 0)
          .num(233, 240, 0);
      else
        segmentB
          .alfa(15, 17, '')
          .alfa(33, 62, '')
          .num(63, 67, 0)
          .alfa(68, 82, '')
          .alfa(83, 97, '')
          .alfa(98, 117, '')
          .num(118, 122, 0)
          .alfa(123, 125, '')
          .alfa(126, 127, '')
          .num(128, 135, 0)
          .num(136, 150, 0)
          .num(151, 165, 0)
          .num(166, 180, 0)
          .num(181, 195, 0)
          .num(196, 210, 0)
          .alfa(211, 225, '')
          .num(226, 226, '0')
          .num(227, 232, 0)
          .alfa(233, 240, '');
      records.push(segmentB.toString());
    }
    // Trailer de Lote: its records (header, details, trailer) and the sum of its payments.
    records.push(
      batch(new Record240())
        .num(8, 8, '5')
        .alfa(9, 17, '')
        .num(18, 23, sequence + 2)
        .num(24, 41, total)
        .num(42, 59, 0)
        .num(60, 65, 0)
        .alfa(66, 230, '')
        .alfa(231, 240, '')
        .toString(),
    );
  }
  // Trailer de Arquivo: batches, and every record of the file (types 0, 1, 3, 5 and 9).
  records.push(
    new Record240()
      .num(1, 3, debtor.bankCode)
      .num(4, 7, '9999')
      .num(8, 8, '9')
      .alfa(9, 17, '')
      .num(18, 23, batchNumber)
      .num(24, 29, records.length + 1)
      .num(30, 35, 0)
      .alfa(36, 240, '')
      .toString(),
  );
  return records.map((r) => `${r}\r\n`).join('');
}

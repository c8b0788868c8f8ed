import { cnab240Remittance, Cnab240Debtor, Cnab240Payment } from './cnab240';

/*
 * The records read back field by field at FEBRABAN's positions, transcribed here from "Layout Padrão Febraban 240
 * posições V08.6" (§2.2 Header/Trailer de Arquivo; §3.1.2 Header de Lote, Segmentos A and B, Trailer de Lote), with the
 * PIX fields of version 10 (segment B: 06.3B Forma de Iniciação 15–17, 11.3B Informação 12 128–226, 13.3B ISPB 233–240).
 * Each table covers its record from 1 to 240 without gap or overlap (checked first), so no position goes unread.
 */
type Field = readonly [id: string, from: number, to: number];

const FILE_HEADER: Field[] = [
  ['01.0 banco', 1, 3],
  ['02.0 lote', 4, 7],
  ['03.0 registro', 8, 8],
  ['04.0 cnab', 9, 17],
  ['05.0 tipo inscrição', 18, 18],
  ['06.0 inscrição', 19, 32],
  ['07.0 convênio', 33, 52],
  ['08.0 agência', 53, 57],
  ['09.0 dv agência', 58, 58],
  ['10.0 conta', 59, 70],
  ['11.0 dv conta', 71, 71],
  ['12.0 dv ag/conta', 72, 72],
  ['13.0 nome empresa', 73, 102],
  ['14.0 nome banco', 103, 132],
  ['15.0 cnab', 133, 142],
  ['16.0 remessa', 143, 143],
  ['17.0 data', 144, 151],
  ['18.0 hora', 152, 157],
  ['19.0 nsa', 158, 163],
  ['20.0 layout arquivo', 164, 166],
  ['21.0 densidade', 167, 171],
  ['22.0 reservado banco', 172, 191],
  ['23.0 reservado empresa', 192, 211],
  ['24.0 cnab', 212, 240],
];
const BATCH_HEADER: Field[] = [
  ['01.1 banco', 1, 3],
  ['02.1 lote', 4, 7],
  ['03.1 registro', 8, 8],
  ['04.1 operação', 9, 9],
  ['05.1 serviço', 10, 11],
  ['06.1 forma', 12, 13],
  ['07.1 layout lote', 14, 16],
  ['08.1 cnab', 17, 17],
  ['09.1 tipo inscrição', 18, 18],
  ['10.1 inscrição', 19, 32],
  ['11.1 convênio', 33, 52],
  ['12.1 agência', 53, 57],
  ['13.1 dv agência', 58, 58],
  ['14.1 conta', 59, 70],
  ['15.1 dv conta', 71, 71],
  ['16.1 dv ag/conta', 72, 72],
  ['17.1 nome empresa', 73, 102],
  ['18.1 mensagem', 103, 142],
  ['19.1 logradouro', 143, 172],
  ['20.1 número', 173, 177],
  ['21.1 complemento', 178, 192],
  ['22.1 cidade', 193, 212],
  ['23.1 cep', 213, 217],
  ['24.1 complemento cep', 218, 220],
  ['25.1 estado', 221, 222],
  ['26.1 forma pagamento', 223, 224],
  ['27.1 cnab', 225, 230],
  ['28.1 ocorrências', 231, 240],
];
const SEGMENT_A: Field[] = [
  ['01.3A banco', 1, 3],
  ['02.3A lote', 4, 7],
  ['03.3A registro', 8, 8],
  ['04.3A nº registro', 9, 13],
  ['05.3A segmento', 14, 14],
  ['06.3A tipo movimento', 15, 15],
  ['07.3A instrução', 16, 17],
  ['08.3A câmara', 18, 20],
  ['09.3A banco favorecido', 21, 23],
  ['10.3A agência', 24, 28],
  ['11.3A dv agência', 29, 29],
  ['12.3A conta', 30, 41],
  ['13.3A dv conta', 42, 42],
  ['14.3A dv ag/conta', 43, 43],
  ['15.3A nome favorecido', 44, 73],
  ['16.3A seu número', 74, 93],
  ['17.3A data pagamento', 94, 101],
  ['18.3A moeda', 102, 104],
  ['19.3A quantidade moeda', 105, 119],
  ['20.3A valor', 120, 134],
  ['21.3A nosso número', 135, 154],
  ['22.3A data real', 155, 162],
  ['23.3A valor real', 163, 177],
  ['24.3A informação 2', 178, 217],
  ['25.3A finalidade doc', 218, 219],
  ['26.3A finalidade ted', 220, 224],
  ['27.3A finalidade complementar', 225, 226],
  ['28.3A cnab', 227, 229],
  ['29.3A aviso', 230, 230],
  ['30.3A ocorrências', 231, 240],
];
const SEGMENT_B: Field[] = [
  ['01.3B banco', 1, 3],
  ['02.3B lote', 4, 7],
  ['03.3B registro', 8, 8],
  ['04.3B nº registro', 9, 13],
  ['05.3B segmento', 14, 14],
  ['06.3B cnab / forma de iniciação (v10)', 15, 17],
  ['07.3B tipo inscrição', 18, 18],
  ['08.3B inscrição', 19, 32],
  ['09.3B logradouro', 33, 62],
  ['10.3B número', 63, 67],
  ['11.3B complemento', 68, 82],
  ['12.3B bairro', 83, 97],
  ['13.3B cidade', 98, 117],
  ['14.3B cep', 118, 122],
  ['15.3B complemento cep', 123, 125],
  ['16.3B estado', 126, 127],
  ['17.3B vencimento / informação 12 (v10)', 128, 135],
  ['18.3B valor documento', 136, 150],
  ['19.3B abatimento', 151, 165],
  ['20.3B desconto', 166, 180],
  ['21.3B mora', 181, 195],
  ['22.3B multa', 196, 210],
  ['23.3B código favorecido', 211, 225],
  ['24.3B aviso', 226, 226],
  ['25.3B siape', 227, 232],
  ['26.3B cnab / ispb (v10)', 233, 240],
];
const BATCH_TRAILER: Field[] = [
  ['01.5 banco', 1, 3],
  ['02.5 lote', 4, 7],
  ['03.5 registro', 8, 8],
  ['04.5 cnab', 9, 17],
  ['05.5 registros', 18, 23],
  ['06.5 valor', 24, 41],
  ['07.5 moedas', 42, 59],
  ['08.5 aviso débito', 60, 65],
  ['09.5 cnab', 66, 230],
  ['10.5 ocorrências', 231, 240],
];
const FILE_TRAILER: Field[] = [
  ['01.9 banco', 1, 3],
  ['02.9 lote', 4, 7],
  ['03.9 registro', 8, 8],
  ['04.9 cnab', 9, 17],
  ['05.9 lotes', 18, 23],
  ['06.9 registros', 24, 29],
  ['07.9 contas conciliação', 30, 35],
  ['08.9 cnab', 36, 240],
];

/** A record's fields by their ids, each as written (blanks kept). */
function read(line: string, layout: readonly Field[]): Record<string, string> {
  return Object.fromEntries(layout.map(([id, from, to]) => [id.split(' ')[0], line.slice(from - 1, to)]));
}
const blanks = (n: number) => ' '.repeat(n);
const zeros = (n: number) => '0'.repeat(n);

const debtor: Cnab240Debtor = {
  bankCode: '341',
  bankName: 'Itaú Unibanco',
  document: '11222333000181',
  name: 'Plataforma de Pagos Ltda',
  agreement: 'CONV-778899',
  branch: '1234',
  branchDigit: '',
  account: '56789',
  accountDigit: '0',
};
const payments: Cnab240Payment[] = [
  {
    reference: 'A1B2C3D4E5F60718293A',
    amount: 1_534_217,
    beneficiary: {
      name: 'Tienda São João',
      document: '52998224725',
      bankCode: '237',
      branch: '0001',
      branchDigit: '7',
      account: '12345678',
      accountDigit: '9',
      savings: false,
    },
  },
  {
    reference: 'B1B2C3D4E5F60718293A',
    amount: 10_000,
    beneficiary: {
      name: 'Loja Itaú',
      document: '11444777000161',
      bankCode: '341',
      branch: '0500',
      branchDigit: '',
      account: '998877',
      accountDigit: 'X',
      savings: false,
    },
  },
  {
    reference: 'C1B2C3D4E5F60718293A',
    amount: 250,
    beneficiary: { name: 'Açaí do Zé', document: '52998224725', pixKey: 'ze.acai@example.com.br', pixKind: 'EMAIL' },
  },
  {
    reference: 'D1B2C3D4E5F60718293A',
    amount: 99_999,
    beneficiary: { name: 'Pix por CPF', document: null, pixKey: '52998224725', pixKind: 'CPF' },
  },
  {
    reference: 'E1B2C3D4E5F60718293A',
    amount: 1,
    beneficiary: {
      name: 'Poupança',
      document: '52998224725',
      bankCode: '341',
      branch: '0500',
      branchDigit: '',
      account: '4433',
      accountDigit: '1',
      savings: true,
    },
  },
];

describe('CNAB 240 remittance of payments (FEBRABAN 240 V08.6 positions, PIX of V10)', () => {
  const text = cnab240Remittance({
    debtor,
    sequence: 42,
    generatedOn: '2026-11-27',
    generatedAt: '09:05:03',
    paymentDate: '2026-11-30',
    payments,
  });
  const lines = text.split('\r\n');

  it('transcribes each record’s layout whole: every position from 1 to 240 once', () => {
    for (const layout of [FILE_HEADER, BATCH_HEADER, SEGMENT_A, SEGMENT_B, BATCH_TRAILER, FILE_TRAILER]) {
      let next = 1;
      for (const [id, from, to] of layout) {
        expect([id, from]).toEqual([id, next]);
        next = to + 1;
      }
      expect(next).toBe(241);
    }
  });

  it('writes lines of exactly 240 characters ending in CRLF, in the order header, batches (A and B per payment), trailer', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(line).toHaveLength(240);
    expect(lines.map((l) => `${l[7]}${l[7] === '3' ? l[13] : ''}`)).toEqual([
      '0',
      ...['1', '3A', '3B', '5'], // 01 crédito em conta corrente (Itaú to Itaú)
      ...['1', '3A', '3B', '5'], // 05 crédito em conta poupança
      ...['1', '3A', '3B', '5'], // 41 TED (to Bradesco)
      ...['1', '3A', '3B', '3A', '3B', '5'], // 45 PIX transferência (two keys)
      '9',
    ]);
  });

  it('file header: the paying company, its bank, remittance code 1, date and time, NSA and layout 103', () => {
    expect(read(lines[0], FILE_HEADER)).toEqual({
      '01.0': '341',
      '02.0': '0000',
      '03.0': '0',
      '04.0': blanks(9),
      '05.0': '2',
      '06.0': '11222333000181',
      '07.0': 'CONV 778899'.padEnd(20),
      '08.0': '01234',
      '09.0': ' ',
      '10.0': '000000056789',
      '11.0': '0',
      '12.0': ' ',
      '13.0': 'PLATAFORMA DE PAGOS LTDA'.padEnd(30),
      '14.0': 'ITAU UNIBANCO'.padEnd(30),
      '15.0': blanks(10),
      '16.0': '1',
      '17.0': '27112026',
      '18.0': '090503',
      '19.0': '000042',
      '20.0': '103',
      '21.0': '01600',
      '22.0': blanks(20),
      '23.0': blanks(20),
      '24.0': blanks(29),
    });
  });

  it('batch headers: one per form of payment, numbered from 1, credit operation C, service 20 (Pagamento Fornecedor), layout 046', () => {
    const headers = lines.filter((l) => l[7] === '1').map((l) => read(l, BATCH_HEADER));
    expect(headers.map((h) => [h['02.1'], h['06.1']])).toEqual([
      ['0001', '01'],
      ['0002', '05'],
      ['0003', '41'],
      ['0004', '45'],
    ]);
    for (const h of headers)
      expect(h).toMatchObject({
        '01.1': '341',
        '03.1': '1',
        '04.1': 'C',
        '05.1': '20',
        '07.1': '046',
        '08.1': ' ',
        '09.1': '2',
        '10.1': '11222333000181',
        '12.1': '01234',
        '14.1': '000000056789',
        '15.1': '0',
        '17.1': 'PLATAFORMA DE PAGOS LTDA'.padEnd(30),
        '20.1': '00000',
        '23.1': '00000',
        '26.1': '00',
        '27.1': blanks(6),
        '28.1': blanks(10),
      });
  });

  it('segment A: the beneficiary’s bank and account (or none for a PIX key), our reference, the date, BRL and the amount', () => {
    const a = lines.filter((l) => l[7] === '3' && l[13] === 'A').map((l) => read(l, SEGMENT_A));
    expect(a.map((r) => [r['02.3A'], r['04.3A'], r['08.3A'], r['09.3A'], r['10.3A'], r['11.3A'], r['12.3A'], r['13.3A']])).toEqual([
      ['0001', '00001', '000', '341', '00500', ' ', '000000998877', 'X'],
      ['0002', '00001', '000', '341', '00500', ' ', '000000004433', '1'],
      ['0003', '00001', '018', '237', '00001', '7', '000012345678', '9'],
      ['0004', '00001', '009', '000', '00000', ' ', '000000000000', ' '],
      ['0004', '00003', '009', '000', '00000', ' ', '000000000000', ' '],
    ]);
    expect(a.map((r) => [r['15.3A'].trimEnd(), r['16.3A'], r['20.3A']])).toEqual([
      ['LOJA ITAU', 'B1B2C3D4E5F60718293A', '000000000010000'],
      ['POUPANCA', 'E1B2C3D4E5F60718293A', '000000000000001'],
      ['TIENDA SAO JOAO', 'A1B2C3D4E5F60718293A', '000000001534217'],
      ['ACAI DO ZE', 'C1B2C3D4E5F60718293A', '000000000000250'],
      ['PIX POR CPF', 'D1B2C3D4E5F60718293A', '000000000099999'],
    ]);
    for (const r of a)
      expect(r).toMatchObject({
        '01.3A': '341',
        '03.3A': '3',
        '05.3A': 'A',
        '06.3A': '0',
        '07.3A': '00',
        '14.3A': ' ',
        '17.3A': '30112026',
        '18.3A': 'BRL',
        '19.3A': zeros(15),
        '21.3A': blanks(20),
        '22.3A': zeros(8),
        '23.3A': zeros(15),
        '24.3A': blanks(40),
        '25.3A': '  ',
        '27.3A': '  ',
        '28.3A': '   ',
        '29.3A': '0',
        '30.3A': blanks(10),
      });
    // TED's purpose (P011): 00010, credit to an account; none for a credit at the paying bank or a PIX.
    expect(a.map((r) => r['26.3A'])).toEqual([blanks(5), blanks(5), '00010', blanks(5), blanks(5)]);
  });

  it('segment B: the beneficiary’s CPF or CNPJ; for a PIX, the form of initiation (G100) and the key', () => {
    const b = lines.filter((l) => l[7] === '3' && l[13] === 'B');
    const fields = b.map((l) => read(l, SEGMENT_B));
    expect(fields.map((r) => [r['04.3B'], r['07.3B'], r['08.3B']])).toEqual([
      ['00002', '2', '11444777000161'],
      ['00002', '1', '00052998224725'],
      ['00002', '1', '00052998224725'],
      ['00002', '1', '00052998224725'],
      ['00004', '0', zeros(14)],
    ]);
    // Accounts: no initiation, the address and the bill's figures empty (blanks and zeros as the fields' types say).
    for (const r of fields.slice(0, 3))
      expect(r).toMatchObject({
        '06.3B': '   ',
        '09.3B': blanks(30),
        '10.3B': zeros(5),
        '14.3B': zeros(5),
        '17.3B': zeros(8),
        '18.3B': zeros(15),
        '24.3B': '0',
        '25.3B': zeros(6),
        '26.3B': blanks(8),
      });
    // PIX by e-mail (02) and by CPF (03): the key in Informação 12, kept as written; no ISPB for a key.
    expect([b[3].slice(14, 17), b[3].slice(127, 226).trimEnd(), b[3].slice(232, 240)]).toEqual(['02 ', 'ze.acai@example.com.br', zeros(8)]);
    expect([b[4].slice(14, 17), b[4].slice(127, 226).trimEnd(), b[4].slice(232, 240)]).toEqual(['03 ', '52998224725', zeros(8)]);
  });

  it('batch trailers count their records and sum their payments; the file trailer counts batches and every record', () => {
    const trailers = lines.filter((l) => l[7] === '5').map((l) => read(l, BATCH_TRAILER));
    expect(trailers.map((t) => [t['02.5'], t['05.5'], t['06.5']])).toEqual([
      ['0001', '000004', '000000000000010000'],
      ['0002', '000004', '000000000000000001'],
      ['0003', '000004', '000000000001534217'],
      ['0004', '000006', '000000000000100249'],
    ]);
    for (const t of trailers)
      expect(t).toMatchObject({ '01.5': '341', '03.5': '5', '04.5': blanks(9), '07.5': zeros(18), '08.5': zeros(6), '09.5': blanks(165) });
    expect(read(lines[lines.length - 1], FILE_TRAILER)).toEqual({
      '01.9': '341',
      '02.9': '9999',
      '03.9': '9',
      '04.9': blanks(9),
      '05.9': '000004',
      '06.9': String(lines.length).padStart(6, '0'),
      '07.9': zeros(6),
      '08.9': blanks(205),
    });
    expect(lines).toHaveLength(20);
  });

  it('refuses what does not fit its field rather than writing a wrong file', () => {
    expect(() =>
      cnab240Remittance({
        debtor: { ...debtor, account: '1234567890123' },
        sequence: 1,
        generatedOn: '2026-11-27',
        generatedAt: '09:00:00',
        paymentDate: '2026-11-27',
        payments,
      }),
    ).toThrow(/59-70/);
  });
});

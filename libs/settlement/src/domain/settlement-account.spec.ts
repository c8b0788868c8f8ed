import { cbuFrom, Currency } from '@pcs/kernel';
import { Bank, checkAccount, isOnHold, paidTo, SettlementAccount } from './settlement-account';

const bank = (country: string, code: string, accountLengths: number[] | null = null): Bank => ({
  bankId: `${country}-${code}`,
  country,
  code,
  ispb: null,
  name: `Bank ${code}`,
  accountLengths,
});
const nacion = bank('ARG', '011');
const cvuEntry = bank('ARG', '000');
const brou = bank('URY', '001', [9, 14]);
const scotiabank = bank('URY', '128');
const itau = bank('BRA', '341');

describe('settlement accounts (contract §19)', () => {
  it('takes an Argentine CBU of its own bank, a CVU at the virtual-account entry, and nothing else', () => {
    const cbu = cbuFrom('0110599', '0000000012345');
    expect(checkAccount(nacion, 'ARG', { accountNumber: cbu, accountType: 'CHECKING' })).toEqual({
      ok: true,
      accountNumber: cbu,
      holderDocument: null,
    });
    // Separators people type are dropped.
    expect(checkAccount(nacion, 'ARG', { accountNumber: `${cbu.slice(0, 8)} ${cbu.slice(8)}`, accountType: 'SAVINGS' })).toMatchObject({
      ok: true,
      accountNumber: cbu,
    });
    // A CBU of another bank (Galicia, 007) at Nación.
    expect(checkAccount(nacion, 'ARG', { accountNumber: cbuFrom('0070599', '0000000012345'), accountType: 'CHECKING' })).toMatchObject({
      ok: false,
    });
    // A check digit wrong.
    expect(
      checkAccount(nacion, 'ARG', { accountNumber: cbu.slice(0, 21) + ((Number(cbu[21]) + 1) % 10), accountType: 'CHECKING' }),
    ).toMatchObject({
      ok: false,
    });
    const cvu = cbuFrom('0000003', '1000000000001');
    expect(checkAccount(cvuEntry, 'ARG', { accountNumber: cvu, accountType: 'SAVINGS' })).toMatchObject({ ok: true });
    expect(checkAccount(nacion, 'ARG', { accountNumber: cvu, accountType: 'SAVINGS' })).toMatchObject({ ok: false });
    expect(checkAccount(nacion, 'ARG', { accountNumber: cbu, accountType: 'PIX_KEY' })).toMatchObject({ ok: false });
  });

  it('takes a Brazilian branch and account, or a PIX key', () => {
    expect(checkAccount(itau, 'BRA', { accountNumber: '0001/12345-6', accountType: 'CHECKING' })).toMatchObject({
      ok: true,
      accountNumber: '0001/12345-6',
    });
    expect(checkAccount(itau, 'BRA', { accountNumber: '1234-x / 123456789-x', accountType: 'SAVINGS' })).toMatchObject({
      ok: true,
      accountNumber: '1234-X/123456789-X',
    });
    for (const bad of ['12345', '001/12345-6', '0001/12345', '0001/1234567890123-1'])
      expect(checkAccount(itau, 'BRA', { accountNumber: bad, accountType: 'CHECKING' })).toMatchObject({ ok: false });
    expect(checkAccount(itau, 'BRA', { accountNumber: '529.982.247-25', accountType: 'PIX_KEY' })).toMatchObject({
      ok: true,
      accountNumber: '52998224725',
    });
    expect(checkAccount(itau, 'BRA', { accountNumber: 'Pagos@Loja.com.br', accountType: 'PIX_KEY' })).toMatchObject({
      ok: true,
      accountNumber: 'pagos@loja.com.br',
    });
    expect(checkAccount(itau, 'BRA', { accountNumber: '529.982.247-24', accountType: 'PIX_KEY' })).toMatchObject({ ok: false });
  });

  it('takes Uruguayan digits of the bank’s known lengths, otherwise 6 to 14', () => {
    expect(checkAccount(brou, 'URY', { accountNumber: '001234567-00001', accountType: 'SAVINGS' })).toMatchObject({
      ok: true,
      accountNumber: '00123456700001',
    });
    expect(checkAccount(brou, 'URY', { accountNumber: '1234567', accountType: 'CHECKING' })).toMatchObject({ ok: false });
    expect(checkAccount(scotiabank, 'URY', { accountNumber: '1234567', accountType: 'CHECKING' })).toMatchObject({ ok: true });
    expect(checkAccount(scotiabank, 'URY', { accountNumber: '12345', accountType: 'CHECKING' })).toMatchObject({ ok: false });
    expect(checkAccount(scotiabank, 'URY', { accountNumber: '12345678A', accountType: 'CHECKING' })).toMatchObject({ ok: false });
  });

  it('refuses a bank of another country, and checks the holder’s document with its check digits', () => {
    expect(checkAccount(itau, 'URY', { accountNumber: '1234567', accountType: 'CHECKING' })).toMatchObject({ ok: false });
    const cbu = cbuFrom('0110599', '0000000012345');
    expect(checkAccount(nacion, 'ARG', { accountNumber: cbu, accountType: 'CHECKING', holderDocument: '30-70308853-4' })).toMatchObject({
      ok: true,
      holderDocument: '30703088534',
    });
    expect(checkAccount(nacion, 'ARG', { accountNumber: cbu, accountType: 'CHECKING', holderDocument: '30-70308853-5' })).toMatchObject({
      ok: false,
    });
    expect(
      checkAccount(scotiabank, 'URY', { accountNumber: '1234567', accountType: 'CHECKING', holderDocument: '211003420017' }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      checkAccount(itau, 'BRA', { accountNumber: '0001/12345-6', accountType: 'CHECKING', holderDocument: '11.222.333/0001-81' }),
    ).toMatchObject({
      ok: true,
      holderDocument: '11222333000181',
    });
  });

  it('knows the account a payout went to (a return stops that one only) and when a hold is over', () => {
    const at = new Date('2026-11-27T12:00:00Z');
    const account: SettlementAccount = {
      settlementAccountId: 'a',
      merchantId: 'm',
      businessId: 'b',
      currency: Currency.UYU,
      bank: brou,
      accountNumber: '001234567',
      accountType: 'SAVINGS',
      holderDocument: null,
      holdUntil: new Date(at.getTime() + 1),
      confirmedBy: null,
      confirmedAt: null,
      payoutWaitingSince: null,
      returnedPayoutId: null,
      createdAt: at,
      updatedAt: at,
    };
    const destination = { bankId: brou.bankId, accountNumber: '001234567', accountType: 'SAVINGS' as const };
    expect(paidTo(account, destination)).toBe(true);
    expect(paidTo(account, { ...destination, accountNumber: '001234568' })).toBe(false);
    expect(paidTo(account, { ...destination, bankId: scotiabank.bankId })).toBe(false);
    expect(paidTo(account, { ...destination, accountType: 'CHECKING' })).toBe(false);
    expect(isOnHold(account, at)).toBe(true);
    expect(isOnHold(account, new Date(at.getTime() + 1))).toBe(false);
    expect(isOnHold({ ...account, holdUntil: null }, at)).toBe(false);
  });
});

import {
  cbuBankCode,
  Currency,
  isValidCbu,
  isValidCnpj,
  isValidCpf,
  isValidCuit,
  isValidUruguayanCedula,
  isValidUruguayanRut,
  pixKeyKind,
} from '@pcs/kernel';

export const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS', 'PIX_KEY'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** A bank of the catalog, with its official code (BCU, BCRA, COMPE) and, in Brazil, its ISPB. */
export interface Bank {
  readonly bankId: string;
  readonly country: string;
  readonly code: string;
  readonly ispb: string | null;
  readonly name: string;
  /** Uruguay: the lengths of the bank's account numbers, where known. */
  readonly accountLengths: readonly number[] | null;
}

/** Argentina's entry for virtual accounts (CVU) at payment service providers: their keys start with 000. */
export const CVU_BANK_CODE = '000';

/** Where a merchant's payouts in one currency go. */
export interface SettlementAccount {
  readonly settlementAccountId: string;
  readonly merchantId: string;
  readonly businessId: string;
  readonly currency: Currency;
  readonly bank: Bank;
  readonly accountNumber: string;
  readonly accountType: AccountType;
  readonly holderDocument: string | null;
  /** Until when payouts to it wait, after it was set or changed (contract §24); null: they go. */
  readonly holdUntil: Date | null;
  /** The dashboard admin who ended its hold with a second-factor code, and when. */
  readonly confirmedBy: string | null;
  readonly confirmedAt: Date | null;
  /** The first scheduled payout its hold made wait (a local date): made on the first run after the hold. */
  readonly payoutWaitingSince: string | null;
  /**
   * A payout a bank gave back from this very account (contract §24: RETURNED):
   * no payout goes to it again until it is changed or an admin confirms it.
   */
  readonly returnedPayoutId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Whether payouts to the account wait at `now` after it was set or changed. */
export function isOnHold(account: SettlementAccount, now: Date): boolean {
  return account.holdUntil !== null && account.holdUntil.getTime() > now.getTime();
}

/** Whether a payout's destination is this account as it is now (the same bank, number and type). */
export function paidTo(
  account: SettlementAccount,
  destination: { bankId: string; accountNumber: string; accountType: AccountType },
): boolean {
  return (
    account.bank.bankId === destination.bankId &&
    account.accountNumber === destination.accountNumber &&
    account.accountType === destination.accountType
  );
}

/** Whether a new account's details are those the account already has (setting them again changes nothing). */
export function sameAccount(
  account: SettlementAccount,
  next: { bankId: string; accountNumber: string; accountType: AccountType; holderDocument: string | null },
): boolean {
  return (
    account.bank.bankId === next.bankId &&
    account.accountNumber === next.accountNumber &&
    account.accountType === next.accountType &&
    account.holderDocument === next.holderDocument
  );
}

export interface AccountDetails {
  readonly accountNumber: string;
  readonly accountType: AccountType;
  readonly holderDocument?: string | null;
}

export type AccountCheck =
  | { readonly ok: true; readonly accountNumber: string; readonly holderDocument: string | null }
  | { readonly ok: false; readonly reason: string; readonly reasonEs: string };

const refuse = (reason: string, reasonEs: string): AccountCheck => ({ ok: false, reason, reasonEs });
/** Separators people type inside numbers. */
const stripped = (value: string) => value.replace(/[\s.\-/]/g, '');

/**
 * Checks an account at a bank for a merchant of `merchantCountry` (contract
 * §19) and returns it normalised:
 * - Argentina: a CBU of 22 digits with both check digits, whose bank code is
 *   the bank's BCRA code; a CVU (000…) at the catalog's virtual-account entry;
 * - Brazil: branch and account (`0001/12345678-9`, the branch's own check
 *   digit optional), or a PIX key (CPF, CNPJ, e-mail, +55 phone or random key);
 * - Uruguay: the bank's digits (its known lengths, otherwise 6 to 14).
 * The holder's document, when given: a CUIT/CUIL, a CPF or CNPJ, a RUT or
 * cédula, each with its check digits.
 */
export function checkAccount(bank: Bank, merchantCountry: string, details: AccountDetails): AccountCheck {
  if (bank.country !== merchantCountry)
    return refuse(
      `the bank is in ${bank.country}, not in the merchant's country (${merchantCountry})`,
      `el banco está en ${bank.country}, no en el país del comercio (${merchantCountry})`,
    );
  const holder = details.holderDocument === undefined || details.holderDocument === null ? null : stripped(details.holderDocument);
  if (holder !== null && !holderDocumentValid(merchantCountry, holder))
    return refuse(
      `holderDocument is not a valid ${HOLDER_DOCUMENTS[merchantCountry] ?? 'document'}`,
      `holderDocument no es un ${HOLDER_DOCUMENTS_ES[merchantCountry] ?? 'documento'} válido`,
    );
  const number = details.accountNumber.trim();
  switch (merchantCountry) {
    case 'ARG':
      return argentine(bank, details.accountType, stripped(number), holder);
    case 'BRA':
      return brazilian(details.accountType, number, holder);
    case 'URY':
      return uruguayan(bank, details.accountType, stripped(number), holder);
    default:
      return refuse(`no settlement accounts in ${merchantCountry}`, `no hay cuentas de liquidación en ${merchantCountry}`);
  }
}

const HOLDER_DOCUMENTS: Record<string, string> = { ARG: 'CUIT or CUIL', BRA: 'CPF or CNPJ', URY: 'RUT or cédula' };
const HOLDER_DOCUMENTS_ES: Record<string, string> = { ARG: 'CUIT o CUIL', BRA: 'CPF o CNPJ', URY: 'RUT o cédula' };

function holderDocumentValid(country: string, document: string): boolean {
  if (country === 'ARG') return isValidCuit(document);
  if (country === 'BRA') return isValidCpf(document) || isValidCnpj(document);
  if (country === 'URY') return isValidUruguayanRut(document) || isValidUruguayanCedula(document);
  return false;
}

function argentine(bank: Bank, type: AccountType, number: string, holder: string | null): AccountCheck {
  if (type === 'PIX_KEY') return refuse('PIX keys exist only in Brazil', 'las claves PIX existen solo en Brasil');
  if (!isValidCbu(number))
    return refuse(
      'an Argentine account is a CBU or CVU of 22 digits with both check digits right',
      'una cuenta argentina es un CBU o CVU de 22 dígitos con ambos dígitos verificadores correctos',
    );
  const code = cbuBankCode(number);
  if (code === CVU_BANK_CODE && bank.code !== CVU_BANK_CODE)
    return refuse(
      'a CVU (starting 000) belongs to the virtual-account entry of the bank list',
      'un CVU (que empieza con 000) corresponde a la entrada de cuentas virtuales de la lista de bancos',
    );
  if (code !== bank.code)
    return refuse(
      `the CBU is of bank ${code}, not of ${bank.name} (${bank.code})`,
      `el CBU es del banco ${code}, no de ${bank.name} (${bank.code})`,
    );
  return { ok: true, accountNumber: number, holderDocument: holder };
}

function brazilian(type: AccountType, number: string, holder: string | null): AccountCheck {
  if (type === 'PIX_KEY') {
    // DICT keeps e-mails in lower case; digits of a CPF or CNPJ key are typed with separators sometimes.
    const key = /@/.test(number) ? number.toLowerCase() : /^[\d.\-/\s]+$/.test(number) ? stripped(number) : number;
    return pixKeyKind(key)
      ? { ok: true, accountNumber: key, holderDocument: holder }
      : refuse(
          'not a PIX key (a CPF, CNPJ, e-mail, +55 phone number or random key)',
          'no es una clave PIX (CPF, CNPJ, e-mail, teléfono +55 o clave aleatoria)',
        );
  }
  const match = /^(\d{4})(-[\dXx])?\s*\/\s*(\d{1,12})-([\dXx])$/.exec(number);
  if (!match)
    return refuse(
      'a Brazilian account is written branch/account-digit, as 0001/12345678-9',
      'una cuenta brasileña se escribe agencia/cuenta-dígito, como 0001/12345678-9',
    );
  const [, branch, branchDigit = '', account, digit] = match;
  return { ok: true, accountNumber: `${branch}${branchDigit.toUpperCase()}/${account}-${digit.toUpperCase()}`, holderDocument: holder };
}

function uruguayan(bank: Bank, type: AccountType, number: string, holder: string | null): AccountCheck {
  if (type === 'PIX_KEY') return refuse('PIX keys exist only in Brazil', 'las claves PIX existen solo en Brasil');
  const lengths = bank.accountLengths;
  const fits = /^\d+$/.test(number) && (lengths ? lengths.includes(number.length) : number.length >= 6 && number.length <= 14);
  if (!fits) {
    const expected = lengths ? lengths.join(' or ') : '6 to 14';
    const expectedEs = lengths ? lengths.join(' o ') : '6 a 14';
    return refuse(`an account at ${bank.name} has ${expected} digits`, `una cuenta de ${bank.name} tiene ${expectedEs} dígitos`);
  }
  return { ok: true, accountNumber: number, holderDocument: holder };
}

import type { LocalDate } from '@pcs/kernel';

/**
 * Days the banks of a country are closed that the holiday library
 * (`date-holidays`) does not type `public` or `bank` (contract §24). Each
 * entry names the day as the central bank (or the banks' federation) lists
 * it and where that list comes from; docs/money.md shows the whole table.
 *
 * - `date`: one day of one year (a decree's días no laborables);
 * - `everyYear`: the same month and day every year (when a weekday);
 * - `libraryName`: a day the library knows under that name but types
 *   otherwise (an observance, optional): its dates stay the library's, which
 *   moves them as the law does;
 * - `lastBusinessDayOfYear`: the last weekday of the year that is not
 *   otherwise closed.
 */
export type BankClosureRule =
  | { readonly date: LocalDate }
  | { readonly everyYear: `${number}-${number}` }
  | { readonly libraryName: string }
  | { readonly lastBusinessDayOfYear: true };

export interface BankClosure {
  readonly rule: BankClosureRule;
  readonly name: string;
  readonly source: string;
}

const URUGUAY_LAW =
  'Ley 16.805 (text of Ley 17.414): national holidays, the "laborables" included, on which the banks and the BCU’s payment systems do not operate';

export const BANK_CLOSURES: Readonly<Record<string, readonly BankClosure[]>> = {
  ARG: [
    {
      rule: { date: '2026-03-23' },
      name: 'Día no laborable con fines turísticos',
      source:
        'Decreto 614/2025 (días no laborables con fines turísticos 2026); BCRA: no activity in financial entities on días no laborables',
    },
    {
      rule: { date: '2026-07-10' },
      name: 'Día no laborable con fines turísticos',
      source: 'Decreto 614/2025; BCRA: no activity in financial entities on días no laborables',
    },
    {
      rule: { date: '2026-12-07' },
      name: 'Día no laborable con fines turísticos',
      source: 'Decreto 614/2025; BCRA: no activity in financial entities on días no laborables',
    },
    {
      rule: { everyYear: '11-06' },
      name: 'Día del Bancario',
      source: 'Convenio Colectivo de Trabajo 18/75 (bank employees), art. 50; BCRA: no clearing and no service to the public',
    },
  ],
  URY: [
    { rule: { libraryName: 'Día de los Reyes Magos' }, name: 'Reyes', source: URUGUAY_LAW },
    { rule: { libraryName: 'Carnaval' }, name: 'Carnaval (Monday and Tuesday)', source: URUGUAY_LAW },
    { rule: { libraryName: 'Semana de Turismo' }, name: 'Semana de Turismo', source: URUGUAY_LAW },
    { rule: { libraryName: 'Desembarco de los 33 Orientales' }, name: 'Desembarco de los 33 Orientales', source: URUGUAY_LAW },
    { rule: { libraryName: 'Batalla de las Piedras' }, name: 'Batalla de las Piedras', source: URUGUAY_LAW },
    { rule: { libraryName: 'Natalicio de Artigas y Día del Nunca Más' }, name: 'Natalicio de Artigas', source: URUGUAY_LAW },
    { rule: { libraryName: 'Día de la Raza' }, name: 'Día de la Raza', source: URUGUAY_LAW },
    { rule: { libraryName: 'Día de los Difuntos' }, name: 'Día de los Difuntos', source: URUGUAY_LAW },
  ],
  BRA: [
    {
      rule: { lastBusinessDayOfYear: true },
      name: 'Último dia útil do ano (sem expediente bancário para o público)',
      source: 'FEBRABAN’s calendar of bank holidays under CMN Resolução 4.880/2020',
    },
  ],
};

import type { SettlementAccountsService } from '@pcs/settlement';
import { BankController } from './bank.controller';

/** The banks' controller against settlement: the country asked (or none), each bank with its official code, a Brazilian one with its ISPB. */
describe('BankController', () => {
  it('lists the banks of the country asked in their representation', async () => {
    const banks = jest.fn().mockResolvedValue([
      { bankId: 'b-1', country: 'BRA', code: '001', name: 'Banco do Brasil', ispb: '00000000' },
      { bankId: 'b-2', country: 'URY', code: '1001', name: 'BROU', ispb: null },
    ]);
    const controller = new BankController({ banks } as unknown as SettlementAccountsService);
    expect(await controller.list({ country: 'BRA' })).toEqual([
      { bankId: 'b-1', country: 'BRA', code: '001', name: 'Banco do Brasil', ispb: '00000000' },
      { bankId: 'b-2', country: 'URY', code: '1001', name: 'BROU' },
    ]);
    await controller.list({});
    expect(banks.mock.calls).toEqual([['BRA'], [undefined]]);
  });
});

import { declineKindIn } from '@pcs/gateways';
import { DLOCAL_DECLINES } from './dlocal-declines';

describe("dLocal's refusals, soft or hard (contract §31's dunning)", () => {
  it("lists the rejection codes of dLocal's payment status codes, 300 to 325", () => {
    expect(Object.keys(DLOCAL_DECLINES)).toEqual(Array.from({ length: 26 }, (_, i) => String(300 + i)));
  });

  it('retries what another day may pay, never a lost, stolen, expired, blacklisted or invalid card', () => {
    expect(['300', '301', '302', '305', '306', '321', '325'].map((code) => declineKindIn(DLOCAL_DECLINES, code))).toEqual(
      Array(7).fill('SOFT'),
    );
    expect(
      ['303', '308', '309', '310', '311', '312', '313', '314', '315', '317', '320'].map((code) => declineKindIn(DLOCAL_DECLINES, code)),
    ).toEqual(Array(11).fill('HARD'));
  });
});

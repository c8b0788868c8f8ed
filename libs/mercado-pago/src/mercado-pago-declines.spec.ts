import { declineKindIn } from '@pcs/gateways';
import { MERCADO_PAGO_DECLINES } from './mercado-pago-declines';

describe("Mercado Pago's refusals, soft or hard (contract §31's dunning)", () => {
  it("lists the rejected status_detail values of Mercado Pago's collection results, and only those", () => {
    expect(Object.keys(MERCADO_PAGO_DECLINES).sort()).toEqual(
      [
        'bank_error',
        'cc_rejected_3ds_mandatory',
        'cc_rejected_bad_filled_card_number',
        'cc_rejected_bad_filled_date',
        'cc_rejected_bad_filled_other',
        'cc_rejected_bad_filled_security_code',
        'cc_rejected_blacklist',
        'cc_rejected_call_for_authorize',
        'cc_rejected_card_disabled',
        'cc_rejected_card_error',
        'cc_rejected_duplicated_payment',
        'cc_rejected_high_risk',
        'cc_rejected_insufficient_amount',
        'cc_rejected_invalid_installments',
        'cc_rejected_max_attempts',
        'cc_rejected_other_reason',
      ].sort(),
    );
  });

  it('retries what another day may pay, never a card that is wrong, blocked or refused for risk', () => {
    const soft = [
      'cc_rejected_insufficient_amount',
      'cc_rejected_call_for_authorize',
      'cc_rejected_other_reason',
      'cc_rejected_card_error',
    ];
    const hard = [
      'cc_rejected_bad_filled_card_number',
      'cc_rejected_bad_filled_date',
      'cc_rejected_bad_filled_security_code',
      'cc_rejected_blacklist',
      'cc_rejected_card_disabled',
      'cc_rejected_high_risk',
      'cc_rejected_3ds_mandatory',
    ];
    expect(soft.map((code) => declineKindIn(MERCADO_PAGO_DECLINES, code))).toEqual(soft.map(() => 'SOFT'));
    expect(hard.map((code) => declineKindIn(MERCADO_PAGO_DECLINES, code))).toEqual(hard.map(() => 'HARD'));
  });
});

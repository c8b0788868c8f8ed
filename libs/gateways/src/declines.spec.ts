import { declineKindIn, DeclineTable } from './declines';

describe('declineKindIn', () => {
  const table: DeclineTable = {
    funds: { kind: 'SOFT', meaning: 'insufficient funds' },
    stolen: { kind: 'HARD', meaning: 'card reported stolen' },
  };

  it('answers the kind the table gives a code', () => {
    expect([declineKindIn(table, 'funds'), declineKindIn(table, 'stolen')]).toEqual(['SOFT', 'HARD']);
  });

  it('takes a code it does not know, or none, as SOFT (the retry schedule bounds it), never an inherited property', () => {
    expect([declineKindIn(table, 'unheard_of'), declineKindIn(table, null), declineKindIn(table, undefined)]).toEqual([
      'SOFT',
      'SOFT',
      'SOFT',
    ]);
    expect([declineKindIn(table, 'constructor'), declineKindIn(table, '__proto__'), declineKindIn(table, 'toString')]).toEqual([
      'SOFT',
      'SOFT',
      'SOFT',
    ]);
  });
});

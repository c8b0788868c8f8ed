import { amountBucket, nextBucket, splitByAmountBuckets } from './payin-ledger-counts';

/** The amount buckets of payin_amount_count, as the ledger's total splits a range into them (checked against every amount). */
describe('amount buckets', () => {
  it('are the first two significant digits, as pcs_amount_bucket computes them', () => {
    const cases: [bigint, bigint][] = [
      [0n, 0n],
      [99n, 99n],
      [100n, 100n],
      [109n, 100n],
      [110n, 110n],
      [999n, 990n],
      [1000n, 1000n],
      [523456n, 520000n],
      [999999n, 990000n],
      [9223372036854775807n, 9200000000000000000n],
    ];
    for (const [amount, bucket] of cases) expect([amount, amountBucket(amount)]).toEqual([amount, bucket]);
    expect(nextBucket(99n)).toBe(100n);
    expect(nextBucket(990n)).toBe(1000n);
    expect(nextBucket(520000n)).toBe(530000n);
  });

  it('split any range into whole buckets inside it and edges, covering each amount of the range once and nothing outside', () => {
    // Every range over an interval that crosses three decades, each end open or not; each amount checked one by one.
    const amounts = Array.from({ length: 2300 }, (_, i) => BigInt(i));
    const ends = [undefined, 0n, 7n, 99n, 100n, 101n, 109n, 110n, 555n, 990n, 999n, 1000n, 1099n, 1100n, 1234n, 2299n];
    let ranges = 0;
    const wrong: object[] = [];
    for (const from of ends)
      for (const through of ends) {
        if (from !== undefined && through !== undefined && from > through) continue;
        const { full, edges } = splitByAmountBuckets(from, through);
        expect(edges.length).toBeLessThanOrEqual(2);
        for (const amount of amounts) {
          const inRange = (from === undefined || amount >= from) && (through === undefined || amount <= through);
          const bucket = amountBucket(amount);
          const inFull =
            full !== null && (full.from === undefined || bucket >= full.from) && (full.before === undefined || bucket < full.before);
          const inEdges = edges.filter(
            (e) =>
              (e.from === undefined || amount >= e.from) &&
              (e.before === undefined || amount < e.before) &&
              (e.through === undefined || amount <= e.through),
          ).length;
          if (Number(inFull) + inEdges !== (inRange ? 1 : 0)) wrong.push({ from, through, amount, counted: Number(inFull) + inEdges });
        }
        ranges += 1;
      }
    expect(wrong).toEqual([]);
    expect(ranges).toBeGreaterThan(100);
  });
});

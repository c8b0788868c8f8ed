import { BusinessId, DomainError, MerchantId } from '@pcs/kernel';

export const TEST_CLOCK_STATUSES = ['READY', 'ADVANCING', 'DELETED'] as const;
export type TestClockStatus = (typeof TEST_CLOCK_STATUSES)[number];

/** The farthest one advance moves a clock (contract §31: two years). */
export const MAX_ADVANCE_MS = 731 * 86_400_000;

export interface TestClockProps {
  readonly testClockId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  frozenTime: Date;
  status: TestClockStatus;
  /** While ADVANCING: when the advance's hold ends (a process that died mid-way leaves the clock to the next advance then). */
  advancingUntil: Date | null;
  readonly createdAt: Date;
  deletedAt: Date | null;
}

/**
 * A merchant's clock for its sandbox subscriptions (contract §31, as Stripe's test clocks): the subscriptions
 * made with it live at its time, which moves only when it is advanced, forward, at most two years at once.
 */
export class TestClock {
  private constructor(private readonly props: TestClockProps) {}

  static restore(props: TestClockProps): TestClock {
    return new TestClock({ ...props });
  }

  static create(input: Pick<TestClockProps, 'testClockId' | 'businessId' | 'merchantId' | 'frozenTime' | 'createdAt'>): TestClock {
    return new TestClock({ ...input, status: 'READY', advancingUntil: null, deletedAt: null });
  }

  get id(): string {
    return this.props.testClockId;
  }

  snapshot(): Readonly<TestClockProps> {
    return this.props;
  }

  /** Whether subscriptions may still be made with it. */
  assertUsable(): void {
    if (this.props.status === 'DELETED') throw new DomainError('TEST_CLOCK_DELETED');
  }

  /** Starts an advance to `to`: forward only, at most two years, one at a time (held until `holdUntil`). */
  startAdvance(to: Date, now: Date, holdUntil: Date): void {
    this.assertUsable();
    if (this.props.status === 'ADVANCING' && this.props.advancingUntil && this.props.advancingUntil > now)
      throw new DomainError('TEST_CLOCK_ADVANCING');
    if (!(to.getTime() > this.props.frozenTime.getTime()) || to.getTime() - this.props.frozenTime.getTime() > MAX_ADVANCE_MS)
      throw new DomainError('TEST_CLOCK_INVALID_ADVANCE', undefined, { frozenTime: this.props.frozenTime.toISOString() });
    this.props.status = 'ADVANCING';
    this.props.advancingUntil = holdUntil;
  }

  /** Time moves to `at` (never back) while an advance runs, which holds the clock until `holdUntil` when given. */
  reach(at: Date, holdUntil?: Date): void {
    if (at > this.props.frozenTime) this.props.frozenTime = at;
    if (holdUntil && this.props.status === 'ADVANCING') this.props.advancingUntil = holdUntil;
  }

  finishAdvance(to: Date): void {
    this.reach(to);
    this.props.status = 'READY';
    this.props.advancingUntil = null;
  }

  delete(now: Date): void {
    this.assertUsable();
    this.props.status = 'DELETED';
    this.props.deletedAt = now;
  }
}

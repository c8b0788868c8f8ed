import { EVENT_TYPES, EventType } from '@pcs/events';

export interface WebhookEndpointProps {
  readonly webhookEndpointId: string;
  readonly businessId: string;
  /** null: the business's endpoint, which receives all its merchants' events. */
  readonly merchantId: string | null;
  url: string;
  description: string | null;
  /** null: every type, including types added later. */
  enabledEvents: EventType[] | null;
  disabled: boolean;
  disabledReason: string | null;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Where a business or merchant receives its events (contract §14). Secrets arrive sealed; the aggregate never sees them in clear. */
export class WebhookEndpoint {
  private constructor(private readonly props: WebhookEndpointProps) {}

  static create(
    props: Omit<
      WebhookEndpointProps,
      'disabled' | 'disabledReason' | 'previousSecretCiphertext' | 'previousSecretExpiresAt' | 'updatedAt' | 'deletedAt'
    >,
  ): WebhookEndpoint {
    return new WebhookEndpoint({
      ...props,
      enabledEvents: WebhookEndpoint.normalise(props.enabledEvents),
      disabled: false,
      disabledReason: null,
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      updatedAt: props.createdAt,
      deletedAt: null,
    });
  }

  static restore(props: WebhookEndpointProps): WebhookEndpoint {
    return new WebhookEndpoint({ ...props });
  }

  get id(): string {
    return this.props.webhookEndpointId;
  }

  snapshot(): Readonly<WebhookEndpointProps> {
    return { ...this.props };
  }

  /** The types it receives, by name: every type when none was chosen. */
  get enabledEvents(): readonly EventType[] {
    return this.props.enabledEvents ?? EVENT_TYPES;
  }

  update(change: { url?: string; description?: string | null; enabledEvents?: EventType[]; disabled?: boolean }, now: Date): void {
    if (change.url !== undefined) this.props.url = change.url;
    if (change.description !== undefined) this.props.description = change.description;
    if (change.enabledEvents !== undefined) this.props.enabledEvents = WebhookEndpoint.normalise(change.enabledEvents);
    if (change.disabled !== undefined) {
      this.props.disabled = change.disabled;
      this.props.disabledReason = change.disabled ? 'disabled by request' : null;
    }
    this.props.updatedAt = now;
  }

  /** The new sealed secret signs from now on; the old one also signs until the grace period ends (0: at once). */
  rotate(newSecretCiphertext: string, graceMinutes: number, now: Date): void {
    this.props.previousSecretCiphertext = graceMinutes > 0 ? this.props.secretCiphertext : null;
    this.props.previousSecretExpiresAt = graceMinutes > 0 ? new Date(now.getTime() + graceMinutes * 60_000) : null;
    this.props.secretCiphertext = newSecretCiphertext;
    this.props.updatedAt = now;
  }

  delete(now: Date): void {
    this.props.deletedAt = now;
    this.props.updatedAt = now;
  }

  /** Every chosen type once, in the catalogue's order; all of them is stored as "all" (null). */
  private static normalise(types: readonly EventType[] | null): EventType[] | null {
    if (!types) return null;
    const chosen = EVENT_TYPES.filter((type) => types.includes(type));
    return chosen.length === EVENT_TYPES.length ? null : chosen;
  }
}

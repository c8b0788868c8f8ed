import { ChangeAlongside, Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import { Link, LinkId, LinkStatus } from './domain/link';

/** A link's processor as stored: the row's own id (shown by the Link representation) and the country processor. */
export interface StoredLinkProcessor {
  readonly linkCountryProcessorId: string;
  readonly countryProcessorId: string;
}

/** Where links are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class LinkRepository {
  /** A live (not deleted) link within the scope; with `lock`, for update (paying, changing, deleting). */
  abstract findVisible(tx: Transaction, scope: TenantScope, linkId: LinkId, lock?: boolean): Promise<Link | null>;
  /** A live link by id, for the public pay page (which acts for no caller). */
  abstract findLive(tx: Transaction, linkId: LinkId, lock?: boolean): Promise<Link | null>;
  /** Operation 29: newest first, within the scope, optionally of one status (computed at `now`). */
  abstract list(tx: Transaction, scope: TenantScope, filter: { status?: LinkStatus; now: Date }, page: PageRequest): Promise<Page<Link>>;
  abstract insert(tx: Transaction, link: Link): Promise<void>;
  /** Saves the link; its processors are replaced when they changed. */
  abstract save(tx: Transaction, link: Link): Promise<void>;
  abstract processorsOf(tx: Transaction, linkIds: readonly LinkId[]): Promise<Map<LinkId, StoredLinkProcessor[]>>;
  /**
   * A live link within the scope, with its stored processors and the row's
   * version (it changes with every write of the row), in one query: for a
   * payment that is then written by `usedAlongside`. Unlocked unless `lock`.
   */
  abstract findForPayment(
    tx: Transaction,
    scope: TenantScope,
    linkId: LinkId,
    lock?: boolean,
  ): Promise<{ link: Link; processors: StoredLinkProcessor[]; version: string } | null>;
  /**
   * The write that records a link's use (after `Link.use`), for the payment
   * intent's own statement to run: it finds its row only while the link is
   * still the version read, unused, live and not expired, so of concurrent
   * payments exactly one writes it; it is required, so the intent is written
   * exactly when it did.
   */
  abstract usedAlongside(link: Link, version: string): ChangeAlongside;
}

import { Caller, MerchantId, Page, PageRequest } from '@pcs/kernel';
import type { Statement } from '@pcs/events';
import type { EntityManager } from 'typeorm';
import { Link, LinkId, LinkStatus } from './domain/link';

/** A link's processor as stored: the row's own id (shown by the Link representation) and the country processor. */
export interface StoredLinkProcessor {
  readonly linkCountryProcessorId: string;
  readonly countryProcessorId: string;
}

/** Where links are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class LinkRepository {
  /** A live (not deleted) link the caller may see; with `lock`, for update (paying, changing, deleting). */
  abstract findVisible(manager: EntityManager, caller: Caller, linkId: LinkId, lock?: boolean): Promise<Link | null>;
  /** A live link by id, for the public pay page (which acts for no caller). */
  abstract findLive(manager: EntityManager, linkId: LinkId, lock?: boolean): Promise<Link | null>;
  /** Operation 29: newest first, optionally one merchant's and one status (computed at `now`). */
  abstract list(
    manager: EntityManager,
    caller: Caller,
    filter: { merchantId?: MerchantId; status?: LinkStatus; now: Date },
    page: PageRequest,
  ): Promise<Page<Link>>;
  abstract insert(manager: EntityManager, link: Link): Promise<void>;
  /** Saves the link; its processors are replaced when they changed. */
  abstract save(manager: EntityManager, link: Link): Promise<void>;
  abstract processorsOf(manager: EntityManager, linkIds: readonly LinkId[]): Promise<Map<LinkId, StoredLinkProcessor[]>>;
  /**
   * A live link the caller may see, with its stored processors and the row's
   * version (it changes with every write of the row), in one query: for a
   * payment that is then written by `useStatement`. Unlocked unless `lock`.
   */
  abstract findForPayment(
    manager: EntityManager,
    caller: Caller,
    linkId: LinkId,
    lock?: boolean,
  ): Promise<{ link: Link; processors: StoredLinkProcessor[]; version: string } | null>;
  /**
   * The statement that records a link's use (after `Link.use`): it finds its
   * row only while the link is still the version read, unused, live and not
   * expired, so of concurrent payments exactly one writes it; its result has
   * a row exactly when it did.
   */
  abstract useStatement(link: Link, version: string): Statement;
}

import { linkRepresentation } from '@pcs/links';
import type { LinkView } from '@pcs/links';
import { LinkResponse } from './link.responses';

/** Whitelists exactly the fields of the Link (specification, contract §12). */
export function presentLink(view: LinkView): LinkResponse {
  return linkRepresentation(view);
}

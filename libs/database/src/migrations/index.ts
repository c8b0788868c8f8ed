import { InitialSchema1795300000000 } from './1795300000000-initial-schema';

/** Every migration, in order. Listed explicitly so builds never depend on globbing. */
export const MIGRATIONS = [InitialSchema1795300000000];

import { InitialSchema1795300000000 } from './1795300000000-initial-schema';
import { PayersInstrumentsIntents1795400000000 } from './1795400000000-payers-instruments-intents';

/** Every migration, in order. Listed explicitly so builds never depend on globbing. */
export const MIGRATIONS = [InitialSchema1795300000000, PayersInstrumentsIntents1795400000000];

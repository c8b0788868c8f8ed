import { ValueTransformer } from 'typeorm';

/**
 * `pg` returns bigint columns as strings. Amounts here are integer minor
 * units below 10^12, so they fit a JavaScript number exactly.
 */
export const bigintTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => {
    if (value === null || value === undefined) return null;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new Error('bigint column out of the safe integer range');
    return parsed;
  },
};

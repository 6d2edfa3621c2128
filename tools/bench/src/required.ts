/**
 * `value`, or an error naming what was missing: a bench run without it (an env entry, a
 * first receipt) could only fail later and less clearly.
 */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

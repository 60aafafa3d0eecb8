/**
 * What a `use…()` helper of the system tests set in its `beforeAll`, read by a test or hook; an error
 * naming the helper and the value when it is read before that hook ran (at collection time, for one).
 */
export function started<T>(helper: string, name: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`${helper}: ${name} is read before its beforeAll ran`);
  return value;
}

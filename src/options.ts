/** Validation of options that take one of a fixed set of values, with one wording everywhere. */

/** Throws a `TypeError` naming `name` unless `value` is one of `allowed`. */
export function assertOneOf<T>(name: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new TypeError(`${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}.`);
  }
}

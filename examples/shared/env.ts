/** Reading the examples' settings from the environment, with messages that name the variable. */

/** The whole number in `process.env[name]`, or `fallback`; throws naming `name` when it is not one from 0 to `max`. */
export function numberFromEnv(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new Error(`${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(process.env[name])}.`);
  return value;
}

/** Checks of option values, with one wording everywhere: each throws an `InvalidOptionError` that names the option. */
import { InvalidOptionError } from "./invalid-option-error.js";

/**
 * Throws an `InvalidOptionError` naming `name` unless `valid`: "`name` `requirement`, got `value`." (numbers as
 * written, so NaN and Infinity show as themselves).
 */
export function assertOption(name: string, value: unknown, valid: boolean, requirement: string): void {
  if (valid) return;
  const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
  throw new InvalidOptionError(`${name} ${requirement}, got ${shown}.`, { option: name, value });
}

/** Throws an `InvalidOptionError` naming `name` unless `value` is one of `allowed`. */
export function assertOneOf<T>(name: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new InvalidOptionError(
      `${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}.`,
      { option: name, value, allowed },
    );
  }
}

/** Throws an `InvalidOptionError` unless `model` is a model's name, or not given. */
export function assertModelName(model: unknown): asserts model is string | undefined {
  if (model === undefined || (typeof model === "string" && model.trim() !== "")) return;
  throw new InvalidOptionError(
    `model must be the name of the model the history goes to ("claude-sonnet-4-5"), got ${JSON.stringify(model)}.`,
    { option: "model", value: model },
  );
}

/** `store` when it is a boolean or not given; throws an `InvalidOptionError` otherwise. */
export function assertStore(store: unknown): asserts store is boolean | undefined {
  if (store === undefined || typeof store === "boolean") return;
  throw new InvalidOptionError(
    `store must be true or false (false for an app whose responses OpenAI keeps nothing of), got ${JSON.stringify(store)}.`,
    { option: "store", value: store, allowed: [true, false] },
  );
}

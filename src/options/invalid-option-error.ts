/**
 * Thrown where an option is not one the sanitizer takes (the checkpointer's, the middleware's, `repairMessages`'s):
 * a `TypeError` whose message names the option and what it takes. `option`, `value` and `allowed` say the same for
 * code, such as an app that validates its settings at start-up.
 */
export class InvalidOptionError extends TypeError {
  override name = "InvalidOptionError";
  /** The option, as its name is written in code (`"provider"`, `"markers.missingReply"`). */
  readonly option: string;
  /** The value given. */
  readonly value: unknown;
  /** The values it takes, where they are a list. */
  readonly allowed: readonly unknown[] | undefined;

  constructor(message: string, fields: { option: string; value: unknown; allowed?: readonly unknown[] }) {
    super(message);
    this.option = fields.option;
    this.value = fields.value;
    this.allowed = fields.allowed;
  }
}

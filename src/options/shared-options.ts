import { InvalidOptionError } from "./invalid-option-error.js";
import { resolveRepairSettings, type RepairSettings, type ResolvedRepairSettings } from "../repair/settings.js";
import { assertTelemetryOption, type TelemetryOption } from "../telemetry/telemetry-option.js";

/** As `compile()` takes them: node names or `"*"`. @internal */
export function assertBreakpointNodes(name: string, value: unknown): void {
  if (value === "*" || (Array.isArray(value) && value.every((node) => typeof node === "string" && node !== ""))) return;
  throw new InvalidOptionError(
    `${name} must be "*" or an array of node names, as compile({ ${name} }) takes them; got ${JSON.stringify(value)}.`,
    { option: name, value },
  );
}

/** Shared by the checkpointer and the middleware. */
export interface SharedRepairOptions<Event> extends RepairSettings {
  /**
   * Called once per repaired channel of a read, or per repaired request (the middleware). It runs inside the call:
   * keep it fast, and do not throw.
   * @default undefined
   */
  onRepair?: (event: Event) => void;
  /**
   * OpenTelemetry metrics, span events and (the checkpointer's) a span per operation, through `@opentelemetry/api`
   * when installed (docs/observability.md). `false` turns them all off; an object names providers of its own and how
   * spans record thread ids.
   * @default true
   */
  telemetry?: TelemetryOption;
}

export interface ReadOptions {
  /**
   * Give a saver on the stock `JsonPlusSerializer` a `FastJsonPlusSerializer`: the same bytes and values, several times
   * faster (docs/serializer.md). `false` leaves the saver as it is.
   * @default true
   */
  fastReads?: boolean;
}

/** @internal */
export function assertFastReads(fastReads: unknown): boolean {
  if (fastReads === undefined || typeof fastReads === "boolean") return fastReads ?? true;
  throw new InvalidOptionError(
    `fastReads must be true or false (false keeps the wrapped saver's stock serializer), got ${JSON.stringify(fastReads)}.`,
    { option: "fastReads", value: fastReads, allowed: [true, false] },
  );
}

/** @internal */
export interface ResolvedRepairOptions<Event> {
  repair: ResolvedRepairSettings;
  onRepair: ((event: Event) => void) | undefined;
  telemetry: TelemetryOption | undefined;
}

/** Bad marker texts fail here, not on the first broken history. @internal */
export function resolveRepairOptions<Event>(options: SharedRepairOptions<Event>): ResolvedRepairOptions<Event> {
  if (options.onRepair !== undefined && typeof options.onRepair !== "function") {
    throw new InvalidOptionError("onRepair must be a function.", { option: "onRepair", value: options.onRepair });
  }
  assertTelemetryOption(options.telemetry);
  return { repair: resolveRepairSettings(options), onRepair: options.onRepair, telemetry: options.telemetry };
}

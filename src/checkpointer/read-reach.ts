// How far the sanitizer's reads look past the checkpoint they read: retention keeps at least that much.

/** A read looks this far past input checkpoints for stranded results (runs cancelled right after their input). */
export const MAX_INPUT_ANCESTORS = 8;

/** A preserved delta read looks this far up for its run's input checkpoint. */
export const MAX_RUN_STEPS = 64;

/** What `build` throws, for tests that check the error itself (its class, fields) rather than only its message. */
export function thrownBy(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

/**
 * Sets environment variables (`undefined` deletes one) and returns the function that puts back what was there,
 * deleting what was absent. A vitest worker runs file after file in one process, and child processes inherit its
 * environment, so whatever sets one puts it back when it is done (test/support/leak-check.ts fails a file that does not).
 */
export function setEnv(values: Readonly<Record<string, string | undefined>>): () => void {
  const before = Object.entries(values).map(([key]) => [key, process.env[key]] as const);
  const assign = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  for (const [key, value] of Object.entries(values)) assign(key, value);
  return () => {
    for (const [key, value] of before) assign(key, value);
  };
}

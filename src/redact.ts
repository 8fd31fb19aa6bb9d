/** A connection URL without its password (with or without a user name, as in `redis://:pass@host`), for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

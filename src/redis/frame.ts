/**
 * A record stored in one Redis value: a small JSON header followed by raw byte parts (serialized values are stored as
 * they come from the serializer, never re-encoded as text). Layout: u32 header length, header, then each part.
 */
export interface Frame<H> {
  header: H;
  parts: Buffer[];
}

export function encodeFrame<H extends object>(header: H, parts: readonly Uint8Array[]): Buffer {
  const head = Buffer.from(JSON.stringify({ ...header, lengths: parts.map((p) => p.byteLength) }), "utf8");
  const size = Buffer.alloc(4);
  size.writeUInt32BE(head.byteLength, 0);
  return Buffer.concat([size, head, ...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))]);
}

export function decodeFrame<H>(value: Buffer): Frame<H> {
  const headLength = value.readUInt32BE(0);
  const { lengths, ...header } = JSON.parse(value.toString("utf8", 4, 4 + headLength)) as { lengths: number[] };
  const parts: Buffer[] = [];
  let offset = 4 + headLength;
  for (const length of lengths) {
    parts.push(value.subarray(offset, offset + length));
    offset += length;
  }
  return { header: header as H, parts };
}

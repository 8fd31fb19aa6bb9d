/**
 * JSON text as any writer or a hand edit could leave it in a checkpoint, not only as the stock writer writes it:
 * LangChain message records, `undefined` records and plain channel values, with number literals that overflow or
 * underflow a double, `-0`, integers past 2^53, odd spacing, duplicate and `__proto__` keys, unicode escapes and
 * escaped lone surrogates; sent as a string or as UTF-8, sometimes with a BOM, invalid UTF-8 or cut short.
 */
import fc from "fast-check";

const NUMBER_LITERALS = [
  "1e400",
  "-1e400",
  "1.8e308",
  "-1e999",
  "1E+309",
  "1" + "0".repeat(310), // overflows without an exponent
  "1.7976931348623157e308", // the largest double
  "4.9e-324",
  "1e-400",
  "-1e-400",
  "-0",
  "-0.0",
  "0e5",
  "-0E-0",
  "9007199254740993",
  "-123456789012345678901234567890",
  "0",
  "1",
  "-2.5",
  "1e2",
];
const number = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NUMBER_LITERALS) },
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

/** `null` but one time in ten. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, arbitrary);

/** JSON's four whitespace characters, usually none. */
const ws = fc.oneof({ weight: 4, arbitrary: fc.constant("") }, fc.stringMatching(/^[ \t\n\r]{1,3}$/));

const hex4 = (code: number) => code.toString(16).padStart(4, "0");
/** One character of a string literal, written plainly or escaped. */
const stringPiece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 3 }).map((s) => JSON.stringify(s).slice(1, -1)),
  },
  fc.integer({ min: 0, max: 0xffff }).map((code) => `\\u${hex4(code)}`),
  fc.constantFrom("\\ud800", "\\uDC00", "\\ud83d\\ude00", "\\ud83d", "\\u0000", '\\"', "\\\\", "\\/", "\\n", "\\b"),
);
const stringText = fc.array(stringPiece, { maxLength: 4 }).map((pieces) => `"${pieces.join("")}"`);
/** A string literal for `text`, written plainly or with some characters as `\u` escapes. */
const literalOf = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map(
      (escaped) => `"${[...text].map((char, i) => (escaped[i] ? `\\u${hex4(char.charCodeAt(0))}` : char)).join("")}"`,
    );
const known = (...texts: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...texts.map((t) => JSON.stringify(t))) },
    fc.constantFrom(...texts).chain(literalOf),
  );

// Mostly keys that change nothing; now and then one a reviver treats specially.
const keyText = fc.oneof(
  { weight: 6, arbitrary: known("x", "a", "0", "content", "text", "type", "id", "value") },
  { weight: 3, arbitrary: stringText },
  known("lc", "__proto__", "kwargs", "constructor"),
);

const objectText = (members: fc.Arbitrary<[string, string][]>) =>
  fc
    .tuple(members, fc.array(ws, { minLength: 4, maxLength: 4 }))
    .map(([entries, [a, b, c, d]]) =>
      entries.length === 0 ? `{${a}}` : `{${entries.map(([k, v]) => `${a}${k}${b}:${c}${v}${d}`).join(",")}}`,
    );
const arrayText = (items: fc.Arbitrary<string[]>) =>
  fc
    .tuple(items, ws, ws)
    .map(([values, a, b]) => (values.length === 0 ? `[${a}]` : `[${values.map((v) => `${a}${v}${b}`).join(",")}]`));

/** `{ lc: 2, type: "undefined" }`, its keys in either order, sometimes with one more. */
const undefinedRecord = (value: fc.Arbitrary<string>) =>
  fc.tuple(fc.boolean(), rarely(fc.tuple(keyText, value))).chain(([swapped, extra]) => {
    const members: [string, string][] = [
      ['"lc"', "2"],
      ['"type"', '"undefined"'],
    ];
    if (swapped) members.reverse();
    if (extra) members.push(extra);
    return objectText(fc.constant(members));
  });

/** Message classes and the kwargs only they take, besides content, id, name and the metadata dicts. */
const MESSAGE_FIELDS: Record<string, string[]> = {
  AIMessage: ["tool_calls", "usage_metadata"],
  AIMessageChunk: ["tool_calls", "usage_metadata"],
  HumanMessage: [],
  HumanMessageChunk: [],
  ToolMessage: ["tool_call_id", "artifact", "status"],
  ToolMessageChunk: ["tool_call_id", "artifact"],
  SystemMessage: [],
  ChatMessage: ["role"],
  FunctionMessage: [],
};

/**
 * A LangChain message's constructor record, with the kwargs its class takes (now and then one it does not) and
 * `value`s in and among them.
 */
const messageRecord = (value: fc.Arbitrary<string>) => {
  const dict = objectText(fc.array(fc.tuple(keyText, value), { maxLength: 3 }));
  const args = objectText(fc.array(fc.tuple(known("x", "query", "n"), value), { maxLength: 3 }));
  const toolCall = objectText(
    fc
      .tuple(stringText, known("calc", "search"), args, fc.boolean())
      .map(([id, name, argsText, typed]) => [
        ['"id"', id],
        ['"name"', name],
        ['"args"', argsText],
        ...(typed ? ([['"type"', '"tool_call"']] as [string, string][]) : []),
      ]),
  );
  const textBlock = objectText(
    stringText.map((text) => [
      ['"type"', '"text"'],
      ['"text"', text],
    ]),
  );
  const usage = objectText(
    fc.array(fc.tuple(known("input_tokens", "output_tokens", "total_tokens"), value), { maxLength: 3 }),
  );
  const fieldValues: Record<string, fc.Arbitrary<string>> = {
    content: fc.oneof(stringText, arrayText(fc.array(fc.oneof(textBlock, dict, value), { maxLength: 3 })), value),
    id: fc.oneof(stringText, value),
    name: fc.oneof(stringText, value),
    additional_kwargs: fc.oneof({ weight: 3, arbitrary: dict }, value),
    response_metadata: fc.oneof({ weight: 3, arbitrary: dict }, value),
    tool_calls: fc.oneof({ weight: 3, arbitrary: arrayText(fc.array(toolCall, { maxLength: 2 })) }, value),
    usage_metadata: fc.oneof(usage, value),
    tool_call_id: fc.oneof({ weight: 3, arbitrary: stringText }, value),
    artifact: value,
    status: fc.oneof(known("success", "error"), value),
    role: fc.oneof(stringText, value),
  };
  const field = (name: string) => fc.tuple(known(name), fieldValues[name]!);
  const common = ["content", "id", "name", "additional_kwargs", "response_metadata"];
  const record = fc.constantFrom(...Object.keys(MESSAGE_FIELDS)).chain((name) => {
    const kwargs = objectText(
      fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...common, ...MESSAGE_FIELDS[name]!).chain(field) },
          fc.constantFrom(...Object.keys(fieldValues)).chain(field),
        ),
        { maxLength: 5 },
      ),
    );
    const id = arrayText(fc.tuple(known("langchain_core"), known("messages"), known(name)));
    return fc.tuple(id, kwargs, fc.boolean());
  });
  return record.chain(([idText, kwargsText, reversed]) => {
    const members: [string, string][] = [
      ['"lc"', "1"],
      ['"type"', '"constructor"'],
      ['"id"', idText],
      ['"kwargs"', kwargsText],
    ];
    if (reversed) members.reverse();
    return objectText(fc.constant(members));
  });
};

const scalarText = fc.oneof(
  { weight: 4, arbitrary: number },
  { weight: 2, arbitrary: stringText },
  fc.constantFrom("true", "false", "null"),
);

/**
 * JSON values as text: scalars, arrays, objects (duplicate keys included) and undefined records, and in `value`
 * messages too. Message kwargs hold `plain` ones: a message nested in a message is rare in checkpoints.
 */
const values = fc.letrec<{ plain: string; value: string }>((tie) => {
  const composites = (item: fc.Arbitrary<string>) => [
    arrayText(fc.array(item, { maxLength: 3 })),
    objectText(fc.array(fc.tuple(keyText, item), { maxLength: 3 })),
    undefinedRecord(item),
  ];
  return {
    plain: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 4, arbitrary: scalarText },
      ...composites(tie("plain")),
    ),
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 4, arbitrary: scalarText },
      ...composites(tie("value")),
      messageRecord(tie("plain")),
    ),
  };
});
const jsonText = values.value;

/** A checkpoint-like document as text: messages among other channel values, or any JSON value. */
const documentText = fc.oneof(
  fc
    .tuple(arrayText(fc.array(messageRecord(values.plain), { maxLength: 4 })), jsonText, ws)
    .map(([messages, other, space]) => `${space}{"channel_values":{"messages":${messages},"other":${other}}}${space}`),
  jsonText,
);

/** How the text reaches the reader: as a string, or as its UTF-8 bytes with a BOM, invalid bytes, or cut short. */
export const storedText = fc.record({
  json: documentText,
  as: fc.constantFrom("string", "bytes"),
  bom: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
  // Bytes no UTF-8 decoder accepts (a stray continuation, a cut sequence, an overlong and an encoded surrogate),
  // put after the first quote or anywhere.
  invalid: rarely(
    fc.tuple(
      fc.constantFrom([0xff], [0x80], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]),
      fc.boolean(),
      fc.nat(),
    ),
  ),
  cut: rarely(fc.nat()),
});

type StoredText = typeof storedText extends fc.Arbitrary<infer T> ? T : never;
const encoder = new TextEncoder();
/** The bytes or string a `storedText` stands for. */
export function storedData({ json, as, bom, invalid, cut }: StoredText): Uint8Array | string {
  const text = (bom ? "\ufeff" : "") + (cut === null ? json : json.slice(0, cut % (json.length + 1)));
  if (as === "string" && invalid === null) return text;
  let bytes = encoder.encode(text);
  if (invalid !== null) {
    const [inserted, inString, at] = invalid;
    const quote = bytes.indexOf(0x22);
    const position = inString && quote >= 0 ? quote + 1 : at % (bytes.length + 1);
    bytes = new Uint8Array([...bytes.subarray(0, position), ...inserted, ...bytes.subarray(position)]);
  }
  return bytes;
}

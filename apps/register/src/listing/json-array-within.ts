/** Items serialised at once: one JSON.stringify per chunk, never one of the whole list. */
const CHUNK = 500;

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * The JSON array of the longest prefix of `rows` (each through `map`) that is at most `maxBytes`
 * of UTF-8, as those bytes: how the unpaged lists are bounded in bytes as well as in rows
 * (docs/decisions.md, Sizes), and the reply's body as it is sent (ADR 0014, "The unpaged
 * array"). Measuring and serialising are one pass: a chunk's JSON is made once, measured, and
 * kept; only the chunk where the bound falls is made again item by item. The output is what
 * JSON.stringify of the kept items would give, byte for byte. Rows are mapped a chunk at a time,
 * so the mapped objects of only one chunk are alive at once.
 */
export function jsonArrayWithin<Row, Out>(
  rows: readonly Row[],
  map: (row: Row) => Out,
  maxBytes: number,
): { json: Buffer; count: number } {
  /** Runs of items' JSON without brackets, to be joined by commas. */
  const parts: string[] = [];
  let bytes = 2; // `[` and `]`
  let count = 0;
  chunks: for (let start = 0; start < rows.length; start += CHUNK) {
    const items = rows.slice(start, start + CHUNK).map(map);
    const text = JSON.stringify(items);
    // The chunk's items and their commas, and the comma that joins it to the ones before.
    const inner = Buffer.byteLength(text, 'utf8') - 2 + (count > 0 ? 1 : 0);
    if (bytes + inner <= maxBytes) {
      parts.push(text.slice(1, -1));
      bytes += inner;
      count += items.length;
      continue;
    }
    for (const item of items) {
      const one = JSON.stringify(item);
      const size = Buffer.byteLength(one, 'utf8') + (count > 0 ? 1 : 0);
      if (bytes + size > maxBytes) break chunks;
      parts.push(one);
      bytes += size;
      count++;
    }
  }
  const json = Buffer.allocUnsafe(bytes);
  let at = 0;
  json[at++] = OPEN;
  parts.forEach((part, i) => {
    if (i > 0) json[at++] = COMMA;
    at += json.write(part, at, 'utf8');
  });
  json[at++] = CLOSE;
  return { json, count };
}

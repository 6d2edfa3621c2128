import { utf8ByteLength } from '@custodian/contracts';

/** Items measured at once: one JSON.stringify per chunk, never one of the whole list. */
const CHUNK = 500;

/**
 * The longest prefix of `items` whose JSON array is at most `maxBytes` of UTF-8: how the
 * unpaged lists are bounded in bytes as well as in rows (docs/decisions.md, Sizes). Measured a
 * chunk at a time, so a list that fits costs about one JSON.stringify of it and an oversized
 * one is never serialised whole; only the chunk where the bound falls is measured item by item.
 */
export function withinBytes<T>(items: T[], maxBytes: number): T[] {
  let bytes = 2; // `[` and `]`
  for (let start = 0; start < items.length; start += CHUNK) {
    const chunk = items.slice(start, start + CHUNK);
    // The chunk's items and their commas, and the comma that joins it to the ones before.
    const inner = utf8ByteLength(JSON.stringify(chunk)) - 2 + (start > 0 ? 1 : 0);
    if (bytes + inner <= maxBytes) {
      bytes += inner;
      continue;
    }
    for (let i = start; i < start + chunk.length; i++) {
      bytes += utf8ByteLength(JSON.stringify(items[i])) + (i > 0 ? 1 : 0);
      if (bytes > maxBytes) return items.slice(0, i);
    }
  }
  return items;
}

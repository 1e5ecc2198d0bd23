// A value too large for one property of a Table storage row, kept as gzip'd JSON in base64 parts
// (ADR 062): the fleet's summaries, their deviations and the fleet's deviation index.
import { gunzipSync, gzipSync } from 'node:zlib';

import type { AppTableEntity } from '@aegis/domain';

/** Table storage keeps at most 32K characters in a string property. */
const PART_CHARS = 30_000;
/** An entity holds at most 1 MiB (UTF-16: 512K characters); the parts stay well below. */
const MAX_PARTS = 15;

/** A value as gzip'd JSON in base64 parts named `{prefix}0…`, with their count; undefined if too large. */
export function packedParts(
  prefix: string,
  value: unknown,
): Record<string, string | number> | undefined {
  const packed = gzipSync(JSON.stringify(value)).toString('base64');
  const parts = Math.ceil(packed.length / PART_CHARS);
  if (parts > MAX_PARTS) return undefined;
  const out: Record<string, string | number> = { [`${prefix}Parts`]: parts };
  for (let i = 0; i < parts; i++) {
    out[`${prefix}${i}`] = packed.slice(i * PART_CHARS, (i + 1) * PART_CHARS);
  }
  return out;
}

/** The value `packedParts` wrote into a row; undefined when a part is missing or unreadable. */
export function unpackedParts(row: AppTableEntity, prefix: string): unknown {
  const parts = Number(row[`${prefix}Parts`]);
  if (!Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) return undefined;
  let packed = '';
  for (let i = 0; i < parts; i++) {
    const part = row[`${prefix}${i}`];
    if (typeof part !== 'string') return undefined;
    packed += part;
  }
  try {
    return JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

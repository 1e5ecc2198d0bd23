// A value too large for one property of a Table storage row, kept as gzip'd JSON in base64 parts
// (ADR 062): the fleet's summaries, their deviations and the fleet's deviation index, whose parts
// may span several rows (ADR 090).
import { gunzipSync, gzipSync } from 'node:zlib';

import type { AppTableEntity } from '@aegis/domain';

/** Table storage keeps at most 32K characters in a string property. */
const PART_CHARS = 30_000;
/** An entity holds at most 1 MiB (UTF-16: 512K characters); the parts stay well below. */
const MAX_PARTS = 15;

type Parts = Record<string, string | number>;

const packed = (value: unknown) => gzipSync(JSON.stringify(value)).toString('base64');

function partsOf(prefix: string, text: string): Parts {
  const parts = Math.ceil(text.length / PART_CHARS);
  const out: Parts = { [`${prefix}Parts`]: parts };
  for (let i = 0; i < parts; i++) {
    out[`${prefix}${i}`] = text.slice(i * PART_CHARS, (i + 1) * PART_CHARS);
  }
  return out;
}

/** The text of a row's parts; undefined when a part is missing. */
function textOf(row: AppTableEntity, prefix: string): string | undefined {
  const parts = Number(row[`${prefix}Parts`]);
  if (!Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) return undefined;
  let text = '';
  for (let i = 0; i < parts; i++) {
    const part = row[`${prefix}${i}`];
    if (typeof part !== 'string') return undefined;
    text += part;
  }
  return text;
}

function unpacked(text: string): unknown {
  try {
    return JSON.parse(gunzipSync(Buffer.from(text, 'base64')).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A value as gzip'd JSON in base64 parts named `{prefix}0…`, with their count; undefined if too large. */
export function packedParts(prefix: string, value: unknown): Parts | undefined {
  const text = packed(value);
  return text.length > MAX_PARTS * PART_CHARS ? undefined : partsOf(prefix, text);
}

/** The value `packedParts` wrote into a row; undefined when a part is missing or unreadable. */
export function unpackedParts(row: AppTableEntity, prefix: string): unknown {
  const text = textOf(row, prefix);
  return text === undefined ? undefined : unpacked(text);
}

/**
 * A value as `packedParts` packs it, over as many rows as it needs (each row's parts as
 * `packedParts` names them); undefined when it needs more than `maxRows`.
 */
export function packedRows(prefix: string, value: unknown, maxRows: number): Parts[] | undefined {
  const text = packed(value);
  const rowChars = MAX_PARTS * PART_CHARS;
  const rows = Math.max(1, Math.ceil(text.length / rowChars));
  if (rows > maxRows) return undefined;
  return Array.from({ length: rows }, (_, i) =>
    partsOf(prefix, text.slice(i * rowChars, (i + 1) * rowChars)),
  );
}

/** The value `packedRows` wrote into these rows, in order; undefined when a part is missing or unreadable. */
export function unpackedRows(rows: readonly AppTableEntity[], prefix: string): unknown {
  let text = '';
  for (const row of rows) {
    const part = textOf(row, prefix);
    if (part === undefined) return undefined;
    text += part;
  }
  return unpacked(text);
}

/** The image formats a report accepts as a logo or banner, by what the file holds. */
export type ImageFormat = 'png' | 'jpeg' | 'svg';

/** How many leading bytes {@link imageFormatOf} needs. */
export const IMAGE_SNIFF_BYTES = 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((b, i) => bytes[i] === b);

/**
 * What image a file's first bytes are (issue 27: a text file renamed '.gif' was taken as a logo):
 * PNG and JPEG by their signatures (the PNG specification's eight bytes, JPEG's start-of-image
 * marker), SVG as XML text whose first element is `<svg`. Undefined for anything else, whatever
 * the file's name or the browser's guess at its type say.
 */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  // what may come before `<svg` is ASCII: read the bytes as characters, after a UTF-8 BOM
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  const text = String.fromCharCode(...bytes.subarray(start, IMAGE_SNIFF_BYTES))
    // the XML declaration, comments and a doctype may come before the root element
    .replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i, '');
  return /^<svg[\s>/]/i.test(text) ? 'svg' : undefined;
}

/** What the picker says of a file whose content is not an image it accepts. */
export function notAnImageMessage(fileName: string, accepted: readonly ImageFormat[]): string {
  const names = accepted.map((f) => (f === 'jpeg' ? 'JPEG' : f.toUpperCase()));
  const list =
    names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  return `${fileName} is not a ${list} image: its content is not one, whatever its name says.`;
}

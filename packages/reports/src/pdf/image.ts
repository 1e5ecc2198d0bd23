import { InputError } from '@aegis/domain';
import type { Content } from 'pdfmake/interfaces';

/** A custom logo ready for pdfmake: a PNG/JPEG data URL, or SVG markup (drawn as vectors). */
export type ReportLogo =
  | { kind: 'image'; dataUrl: string; width?: number; height?: number }
  | { kind: 'svg'; svg: string };

export const UNSUPPORTED_LOGO_MESSAGE = 'The logo must be a PNG, JPEG or SVG image.';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sniff(bytes: Uint8Array): 'png' | 'jpeg' | 'svg' | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart();
  if (head.startsWith('<') && /<svg[\s>]/i.test(new TextDecoder().decode(bytes))) return 'svg';
  return undefined;
}

/** Pixel size of a PNG (IHDR) or JPEG (first SOF marker), so a small logo is not blown up. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (sniff(bytes) === 'png' && bytes.length >= 24) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (sniff(bytes) !== 'jpeg') return undefined;
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1] ?? 0;
    const length = view.getUint16(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isSof) return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    i += 2 + length;
  }
  return undefined;
}

function fromBytes(bytes: Uint8Array): ReportLogo {
  const kind = sniff(bytes);
  if (kind === 'svg') return { kind: 'svg', svg: new TextDecoder().decode(bytes) };
  if (kind) {
    return {
      kind: 'image',
      dataUrl: `data:image/${kind};base64,${toBase64(bytes)}`,
      ...imageSize(bytes),
    };
  }
  throw new InputError(UNSUPPORTED_LOGO_MESSAGE, 'logo');
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

/**
 * Reads the custom logo of the Export Report modal: a data URL (as a file input's FileReader gives it) or the
 * file's bytes. PNG and JPEG are embedded as images, SVG as vectors; anything else is an InputError.
 */
export function readLogo(logo: string | Uint8Array): ReportLogo {
  if (typeof logo !== 'string') return fromBytes(logo);
  const match = DATA_URL.exec(logo.trim());
  if (!match) throw new InputError(UNSUPPORTED_LOGO_MESSAGE, 'logo');
  const [, , params = '', payload = ''] = match;
  const isBase64 = /;base64/i.test(params);
  let bytes: Uint8Array;
  try {
    bytes = isBase64
      ? fromBase64(payload.replace(/\s/g, ''))
      : new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    throw new InputError(UNSUPPORTED_LOGO_MESSAGE, 'logo');
  }
  return fromBytes(bytes);
}

/** A logo fitted into `box` (points): SVG as vectors; an image shrunk, never enlarged, so a small one stays sharp. */
export function logoContent(
  logo: string | Uint8Array,
  box: { width: number; height: number },
): Content {
  const read = readLogo(logo);
  if (read.kind === 'svg') return { svg: read.svg, fit: [box.width, box.height] };
  const scale =
    read.width && read.height
      ? Math.min(1, box.width / read.width, box.height / read.height)
      : undefined;
  return scale && read.width && read.height
    ? { image: read.dataUrl, width: read.width * scale, height: read.height * scale }
    : { image: read.dataUrl, fit: [box.width, box.height] };
}

import { describe, expect, it } from 'vitest';

import { imageSize, readLogo } from './image';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAHgAAAAkCAIAAADNSmkJAAAAnUlEQVR42u3auQ2AMBAEQFdCE5RA/wVQDWSIBPxiC5iVQwenCfcubNIlAQHoX0Kvy3T/UNZCR4lx10JnEeMuhC5WZp0BXanMOgm6iTLrCHRDZdagR0M3V2YNehz0Q8pn6/k6xxhf/QMaNGjQoEGDBg0aNGjQoEHrOpRK+mjKoO0MQduCj4N219EP2qVSP+gCbqDl0IncKNtAC+h3ZAfFaIHc+avWhAAAAABJRU5ErkJggg==';
const pngBytes = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));

describe('readLogo', () => {
  it('embeds a PNG data URL as an image with its pixel size', () => {
    const logo = readLogo(`data:image/png;base64,${PNG_BASE64}`);
    expect(logo).toMatchObject({ kind: 'image', width: 120, height: 36 });
  });

  it('turns PNG bytes into a data URL', () => {
    const logo = readLogo(pngBytes);
    expect(logo.kind === 'image' && logo.dataUrl).toBe(`data:image/png;base64,${PNG_BASE64}`);
  });

  it('reads a JPEG size from its SOF marker', () => {
    // SOI, APP0 (length 4), SOF0 with height 20 and width 30.
    const jpeg = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x14,
      0x00, 0x1e, 0x03,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 30, height: 20 });
  });

  it('keeps an SVG logo as vectors, from a data URL or bytes', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    expect(readLogo(`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`)).toEqual({
      kind: 'svg',
      svg,
    });
    expect(readLogo(`data:image/svg+xml;base64,${btoa(svg)}`)).toEqual({ kind: 'svg', svg });
    expect(readLogo(new TextEncoder().encode(svg))).toEqual({ kind: 'svg', svg });
  });

  it('refuses other formats and text that is not a data URL', () => {
    expect(() => readLogo('https://example.com/logo.png')).toThrow(
      'The logo must be a PNG, JPEG or SVG image.',
    );
    expect(() => readLogo(Uint8Array.from([0x47, 0x49, 0x46, 0x38]))).toThrow(/PNG, JPEG or SVG/);
  });
});

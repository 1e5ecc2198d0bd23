import { describe, expect, it } from 'vitest';

import { imageFormatOf, notAnImageMessage } from './image-format';

const bytes = (...values: number[]) => new Uint8Array(values);
/** ASCII text as bytes; '\uFEFF' stands for the UTF-8 byte order mark. */
const text = (s: string) =>
  new Uint8Array([...s].flatMap((c) => (c === '\uFEFF' ? [0xef, 0xbb, 0xbf] : [c.charCodeAt(0)])));

describe('imageFormatOf', () => {
  it('knows PNG and JPEG by their signatures', () => {
    expect(imageFormatOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('png');
    expect(imageFormatOf(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe('jpeg');
  });

  it('knows SVG as XML whose root element is svg, after a declaration, comment or doctype', () => {
    expect(imageFormatOf(text('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe('svg');
    expect(
      imageFormatOf(
        text(
          '\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN">\n<svg>',
        ),
      ),
    ).toBe('svg');
  });

  it('refuses a text file renamed .gif, a GIF, HTML and an empty file', () => {
    expect(imageFormatOf(text('just some notes, renamed logo.gif'))).toBeUndefined();
    expect(imageFormatOf(text('GIF89a\u0001\u0000'))).toBeUndefined();
    expect(imageFormatOf(text('<html><svg></svg></html>'))).toBeUndefined();
    expect(imageFormatOf(bytes())).toBeUndefined();
    // a PNG signature cut short is not a PNG
    expect(imageFormatOf(bytes(0x89, 0x50, 0x4e, 0x47))).toBeUndefined();
  });

  it('says which formats it takes', () => {
    expect(notAnImageMessage('notes.gif', ['png', 'jpeg', 'svg'])).toBe(
      'notes.gif is not a PNG, JPEG or SVG image: its content is not one, whatever its name says.',
    );
  });
});

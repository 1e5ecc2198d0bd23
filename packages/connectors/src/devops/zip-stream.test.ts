import { strFromU8, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { readZipStream } from './zip-stream';

/** The archive in chunks of `size` bytes, as a download would arrive. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) {
    await Promise.resolve();
    yield bytes.slice(i, i + size);
  }
}

const big = JSON.stringify({ settings: Array.from({ length: 2000 }, (_, i) => ({ id: i })) });
const archive = zipSync({
  'ABC/': {},
  'ABC/a.json': [strToU8('{"a":1}'), { level: 0 }],
  'ABC/big.json': [strToU8(big), { level: 9 }],
  'CON/empty.json': [strToU8(''), { level: 6 }],
  'CON/b.json': [strToU8('{"b":2}'), { level: 6 }],
});

describe('readZipStream', () => {
  it('hands over every file whole, in archive order, however the download is cut', async () => {
    for (const size of [1, 7, 100, 4096, archive.length]) {
      const seen: [string, string][] = [];
      await readZipStream(chunked(archive, size), (name, bytes) => {
        seen.push([name, strFromU8(bytes)]);
      });
      expect(seen).toEqual([
        ['ABC/a.json', '{"a":1}'],
        ['ABC/big.json', big],
        ['CON/empty.json', ''],
        ['CON/b.json', '{"b":2}'],
      ]);
    }
  });

  it('skips the files not wanted and waits for a slow consumer before reading on', async () => {
    const order: string[] = [];
    await readZipStream(
      chunked(archive, 64),
      async (name) => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${name}`);
      },
      (name) => name.startsWith('CON/'),
    );
    expect(order).toEqual([
      'start CON/empty.json',
      'end CON/empty.json',
      'start CON/b.json',
      'end CON/b.json',
    ]);
  });

  it('fails on a damaged entry instead of handing over wrong bytes', async () => {
    const damaged = archive.slice();
    // inside big.json's deflated data
    const at = Buffer.from(damaged).indexOf('ABC/big.json') + 40;
    damaged.fill(0xff, at, at + 64);
    await expect(readZipStream(chunked(damaged, 512), () => undefined)).rejects.toThrow();
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { streamProgress } from '../../src/lib/progress-stream';
import { compressionPlugin } from '../../src/plugins/compression';
import { build, SAMPLE_USER, type TestApp } from '../helper';

/** Issue 9 §5: security headers that agree, no caching of what a signed-in account sees, compression. */
describe('HTTP hygiene', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t.close());

  it('forbids framing in both headers alike: X-Frame-Options DENY and frame-ancestors none', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('answers authenticated JSON with Cache-Control: no-store, errors included', async () => {
    const me = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['br', zlib.brotliDecompressSync],
    ['gzip', zlib.gunzipSync],
  ] as const)('compresses JSON with %s when the browser accepts it', async (encoding, inflate) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': encoding },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    const document = JSON.parse(inflate(response.rawPayload).toString('utf8')) as {
      openapi: string;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(response.rawPayload.length).toBeLessThan(
      Buffer.byteLength(JSON.stringify(document)) / 3,
    );
  });

  it('leaves responses uncompressed for a client that does not ask', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.headers['content-encoding']).toBeUndefined();
  });
});

describe('compressed NDJSON progress streams', () => {
  const app = Fastify();
  /** Holds the work until the test has seen its first event; a new gate for every request. */
  let release: () => void = () => {};
  let released = Promise.resolve();
  const newGate = (): void => {
    released = new Promise<void>((resolve) => (release = resolve));
  };
  let url = '';

  beforeAll(async () => {
    await app.register(compressionPlugin);
    app.get('/stream', async (request, reply) =>
      streamProgress(request, reply, async (onProgress) => {
        onProgress(10);
        await released;
        return { padding: 'x'.repeat(50_000) };
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/stream`;
  });
  afterAll(async () => {
    release();
    await app.close();
  });

  it.each([
    ['br', () => zlib.createBrotliDecompress()],
    ['gzip', () => zlib.createGunzip()],
  ] as const)(
    'delivers each %s-compressed event when it is written, not when the work ends',
    async (encoding, createInflate) => {
      newGate();
      const lines: string[] = [];
      let firstEvent: () => void = () => {};
      const gotFirstEvent = new Promise<void>((resolve) => (firstEvent = resolve));
      const done = new Promise<string>((resolve, reject) => {
        http
          .get(url, { headers: { 'accept-encoding': encoding } }, (response) => {
            expect(response.headers['content-encoding']).toBe(encoding);
            let text = '';
            response
              .pipe(createInflate())
              .on('data', (chunk: Buffer) => {
                text += chunk.toString('utf8');
                lines.push(...text.split('\n').slice(0, -1));
                text = text.slice(text.lastIndexOf('\n') + 1);
                if (lines.length > 0) firstEvent();
              })
              .on('end', () => resolve(lines.join('\n')))
              .on('error', reject);
          })
          .on('error', reject);
      });
      // The work is still waiting: only a flushed compressor lets this event through.
      await gotFirstEvent;
      expect(JSON.parse(lines[0] ?? '')).toEqual({ type: 'progress', percent: 10 });
      release();
      const all = (await done).split('\n').map((line) => JSON.parse(line) as { type: string });
      expect(all.map((event) => event.type)).toEqual(['progress', 'progress', 'result']);
    },
  );
});

import zlib from 'node:zlib';

import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What gets compressed besides mime-db's compressible types: text (not event streams), JSON and
 * the NDJSON progress streams (`application/x-ndjson` is not in mime-db).
 */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[/+](?:x-nd)?json(?:;|$)/;

/**
 * Brotli or gzip for every response the browser accepts them for (issue 9 §5): a 1,000-policy
 * comparison is tens of megabytes of JSON. Every write to a compressing stream is flushed, so an
 * NDJSON progress event reaches the browser when it is written, not when the buffer fills.
 * Registered before the routes, whose `onSend` it wraps.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip'],
      customTypes: COMPRESSIBLE_TYPES,
      zlibOptions: { flush: zlib.constants.Z_SYNC_FLUSH },
      brotliOptions: { flush: zlib.constants.BROTLI_OPERATION_FLUSH },
    });
  },
  { name: 'compression' },
);

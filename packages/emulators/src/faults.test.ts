import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { FaultInjector } from './faults';

/** An app answering GET /items with `[]`, behind the fault hook, with latency held by the test. */
function appWithFaults() {
  const waits: number[] = [];
  let release: (() => void) | undefined;
  const faults = new FaultInjector(
    undefined,
    (ms) =>
      new Promise<void>((resolve) => {
        waits.push(ms);
        release = resolve;
      }),
  );
  const app = Fastify();
  app.addHook('onRequest', faults.hook);
  app.get('/items', () => []);
  app.get('/_emulator/faults', () => faults.list());
  return { app, faults, waits, release: () => release?.() };
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('FaultInjector', () => {
  it('holds a request for the latency of every matching rule, then lets it through', async () => {
    const { app, faults, waits, release } = appWithFaults();
    close = () => app.close();
    faults.add({ kind: 'latency', latencyInMs: 150, pathPattern: '^/items$', times: 1 });
    faults.add({ kind: 'latency', latencyInMs: 50, method: 'get', times: 1 });
    let answered = false;
    const response = app.inject({ method: 'GET', url: '/items' }).then((r) => {
      answered = true;
      return r;
    });
    await expect.poll(() => waits).toEqual([200]);
    expect(answered).toBe(false);
    release();
    expect((await response).statusCode).toBe(200);
    // both rules were for one request only
    expect(faults.list()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/items' })).statusCode).toBe(200);
    expect(waits).toEqual([200]);
  });

  it('never holds or fails the emulator control routes', async () => {
    const { app, faults, waits } = appWithFaults();
    close = () => app.close();
    faults.add({ kind: 'latency', latencyInMs: 150 });
    faults.add({ kind: 'error', statusCode: 503 });
    expect((await app.inject({ method: 'GET', url: '/_emulator/faults' })).statusCode).toBe(200);
    expect(waits).toEqual([]);
  });
});

// The server's one scheduler loop: a pass per interval, never two at once, failures logged and the
// loop kept, and a stop that waits for the pass under way. Fake timers: no test waits on the clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RepeatingPass } from '../../src/lib/repeating-pass';

/** A pass the test finishes by hand. */
function controlledPass() {
  const finishers: ((fail?: Error) => void)[] = [];
  const pass = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        finishers.push((fail) => (fail ? reject(fail) : resolve()));
      }),
  );
  const finish = async (fail?: Error) => {
    finishers.shift()?.(fail);
    // let the pass's catch/finally run
    await vi.advanceTimersByTimeAsync(0);
  };
  return { pass, finish };
}

describe('RepeatingPass', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a pass each interval, and skips a tick while the last pass is under way', async () => {
    const { pass, finish } = controlledPass();
    const loop = new RepeatingPass(pass, { warn: vi.fn() }, 'The test pass');
    loop.start(1000);
    expect(pass).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(pass).toHaveBeenCalledTimes(1);
    await finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(2);
    await finish();
    await loop.stop();
  });

  it('logs a failed pass by name and keeps running', async () => {
    const { pass, finish } = controlledPass();
    const warn = vi.fn();
    const loop = new RepeatingPass(pass, { warn }, 'The test pass');
    loop.start(1000);
    await vi.advanceTimersByTimeAsync(1000);
    const failure = new Error('upstream down');
    await finish(failure);
    expect(warn).toHaveBeenCalledWith({ err: failure }, 'The test pass failed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(2);
    await finish();
    await loop.stop();
  });

  it('stops: waits for the pass under way and starts no other', async () => {
    const { pass, finish } = controlledPass();
    const loop = new RepeatingPass(pass, { warn: vi.fn() }, 'The test pass');
    loop.start(1000);
    loop.start(10);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    await finish();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(pass).toHaveBeenCalledTimes(1);
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { registering } from '../../src/lib/registering';

describe('registering', () => {
  it('registers what the plugin declares, with its options', async () => {
    const app = Fastify();
    await app.register(
      registering((instance: FastifyInstance, { answer }: { answer: string }) => {
        instance.get('/answer', () => ({ answer }));
      }),
      { answer: 'ok' },
    );
    const response = await app.inject({ method: 'GET', url: '/answer' });
    expect(response.json()).toEqual({ answer: 'ok' });
    await app.close();
  });

  it('fails register, as an async plugin does, when registering throws', async () => {
    const app = Fastify();
    const registered = app.register(
      registering((instance: FastifyInstance) => {
        instance.get('/twice', () => 1);
        instance.get('/twice', () => 2);
      }),
    );
    await expect(registered).rejects.toMatchObject({ code: 'FST_ERR_DUPLICATED_ROUTE' });
    await app.close();
  });
});

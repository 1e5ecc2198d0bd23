import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { authPlugin } from '../../src/plugins/auth';
import { build, type TestApp } from '../helper';
import { listOperations, type Operation } from '../openapi-operations';

/** Ways to spell a path that a router or proxy might read as the same route (issue 9 §1). */
function spellings(apiPath: string, origin: string): Record<string, string> {
  const rest = apiPath.slice('/api'.length);
  const [first, ...others] = rest.split('/').filter(Boolean);
  return {
    plain: apiPath,
    'encoded a': `/%61pi${rest}`,
    'encoded p': `/a%70i${rest}`,
    'all encoded': `/%61%70%69${rest}`,
    'upper case': `/API${rest}`,
    'double slash before': `/${apiPath}`,
    'double slash inside': `/api/${rest}`,
    'dot segment': `/api/.${rest}`,
    'dot-dot segment': `/nothing/..${apiPath}`,
    'encoded dot-dot': `/nothing/%2e%2e${apiPath}`,
    'encoded slash': `/api%2f${[first, ...others].join('/')}`,
    'absolute form': `${origin}${apiPath}`,
    'absolute form encoded': `${origin}/%61pi${rest}`,
  };
}

function send(
  port: number,
  method: string,
  rawPath: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: rawPath,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

describe('every API operation refuses a request without a token, however the path is spelled', () => {
  let t: TestApp;
  let webDist: string;
  let port: number;
  let operations: Operation[];

  beforeAll(async () => {
    // With the SPA served, so that its fallback is part of what is probed.
    webDist = await mkdtemp(path.join(tmpdir(), 'aegis-probe-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await build({ AEGIS_WEB_DIST: webDist });
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
    operations = await listOperations(t.app);
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('finds the operations in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(20);
    const publicPaths = operations.filter((o) => o.access === 'public').map((o) => o.path);
    expect(publicPaths).toContain('/api/health');
    expect(publicPaths).not.toContain('/api/me');
  });

  it('answers 401, 400 or 404 to every spelling, never 2xx or 5xx', async () => {
    const failures: string[] = [];
    for (const operation of operations.filter((o) => o.access !== 'public')) {
      for (const [spelling, rawPath] of Object.entries(
        spellings(operation.path, `http://127.0.0.1:${port}`),
      )) {
        const { status, body } = await send(port, operation.method, rawPath);
        if (![400, 401, 404].includes(status) || body.includes('id="root"')) {
          failures.push(`${operation.method} ${rawPath} (${spelling}) → ${status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers the canonical spelling of a protected operation with 401 and the sign-in message', async () => {
    const { status, body } = await send(port, 'GET', '/%61pi/me');
    expect(status).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ message: 'No authenticated account found.' });
  });

  it('still serves the page for client routes and the public documents', async () => {
    expect((await send(port, 'GET', '/capture-management/ABC')).body).toContain('id="root"');
    expect((await send(port, 'GET', '/api/health')).status).toBe(200);
    expect((await send(port, 'GET', '/api/docs/json')).status).toBe(200);
  });
});

describe('route access declarations', () => {
  it('refuse to start an app with an /api route that declares neither access nor role', async () => {
    const app = Fastify({ logger: false });
    await app.register(authPlugin, {
      jwksUrl: 'http://127.0.0.1:9/keys',
      issuer: 'x',
      audience: 'y',
    });
    app.get('/api/forgotten', async () => ({ secret: true }));
    app.get('/api/declared', { config: { role: 'Reader' } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/missing on: GET \/api\/forgotten/);
  });
});

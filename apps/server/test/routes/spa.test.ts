import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, SAMPLE_USER, type TestApp } from '../helper';

describe('serving the SPA', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'aegis-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
    await writeFile(path.join(webDist, 'auth-popup.html'), '<!doctype html><p>Signing in</p>');
    t = await build({ AEGIS_WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('keeps sign-in popups attached to the portal (COOP) and lets their return page rejoin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/tenant-baseline-options' });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    const popupReturn = await t.app.inject({
      method: 'GET',
      url: '/auth-popup.html?code=x&state=y',
    });
    expect(popupReturn.statusCode).toBe(200);
    expect(popupReturn.headers['cross-origin-opener-policy']).toBe('unsafe-none');
  });

  it('serves the landing page at /', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('id="root"');
  });

  it('deep links to a client route get index.html', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/capture-management/ABC?view=baseline',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('id="root"');
  });

  it('serves assets, including ones built after the server started', async () => {
    await writeFile(path.join(webDist, 'assets', 'app-2.js'), 'console.log(2)');
    const response = await t.app.inject({ method: 'GET', url: '/assets/app-2.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(2)');
  });

  it('answers an unknown API route with a JSON 404, not the page', async () => {
    const response = await t.injectAs(SAMPLE_USER, { method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404 });
  });
});

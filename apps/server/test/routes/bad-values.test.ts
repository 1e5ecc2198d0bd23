import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildWithSeededDevOps, type AppWithDevOps } from '../devops-fixture';
import { SAMPLE_USER } from '../helper';

/**
 * Values the security probe sent that reached Azure DevOps (issue 26 §2): a NUL byte in a file
 * path, dot segments, capture branch names with '..'. Every DevOps call fails while these run, so
 * a 400 proves the value was refused before any call.
 */
describe('values that must never reach Azure DevOps', () => {
  let env: AppWithDevOps;

  beforeAll(async () => {
    env = await buildWithSeededDevOps();
    env.devops.emulator.faults.add({ kind: 'error', statusCode: 500 });
  });
  afterAll(() => env.close());

  const q = encodeURIComponent;
  const cases: { url: string; field: string }[] = [
    {
      url: `/api/capture/clients/ABC/file?branch=main&path=${q('Clients/ABC/a\u0000.json')}`,
      field: 'querystring.path',
    },
    {
      url: `/api/capture/clients/ABC/file?branch=main&path=${q('Clients/ABC/....//a.json')}`,
      field: 'querystring.path',
    },
    {
      url: `/api/capture/clients/ABC/file?branch=main&path=${q('Clients/ABC/../XYZ/a.json')}`,
      field: 'querystring.path',
    },
    {
      url: `/api/capture/clients/ABC/file?branch=${q('client-ABC-capture-..')}&path=a.json`,
      field: 'querystring.branch',
    },
    {
      url: `/api/capture/clients/ABC/file?branch=${q('client-ABC-capture-1..2')}&path=a.json`,
      field: 'querystring.branch',
    },
    {
      url: `/api/baseline/file?path=${q('M365Config/Resources/..../x.json')}`,
      field: 'querystring.path',
    },
    {
      url: `/api/baseline/files?path=${q('M365Config/\u0000Resources')}`,
      field: 'querystring.path',
    },
    {
      url: `/api/compliance/ABC?branch=${q('client-ABC-capture-1..2')}`,
      field: 'querystring.branch',
    },
    { url: `/api/backups/ABC/content?tag=${q('backup/ABC/..')}`, field: 'querystring.tag' },
    { url: `/api/backups/ABC/content?tag=${q('backup/ABC/x\u0000')}`, field: 'querystring.tag' },
  ];

  it.each(cases)('answers 400 naming $field for $url', async ({ url, field }) => {
    const response = await env.t.injectAs(SAMPLE_USER, { method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { field: string }).field).toBe(field);
  });

  it('answers a restore of a tag with a NUL byte with 400 before any call', async () => {
    const response = await env.t.injectAs(SAMPLE_USER, {
      method: 'POST',
      url: '/api/backups/ABC/restore',
      payload: { tag: 'backup/ABC/x\u0000y' },
    });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { field: string }).field).toBe('body.tag');
  });
});

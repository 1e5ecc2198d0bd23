import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { createTablesClient } from '@aegis/connectors/tables';
import { AEGIS_ROLES, AUDIT_TABLE, hasRole, type AegisRole } from '@aegis/domain';
import {
  startAzurite,
  startIdentityProvider,
  type IdentityProvider,
  type RunningAzurite,
} from '@aegis/emulators';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildApp, loadConfig } from '../../src';
import { TEST_AUDIENCE } from '../helper';
import { listOperations, type Operation } from '../openapi-operations';

/** A sample account holding each role, and one without any Aegis role. */
const ACCOUNT_OF: Record<AegisRole | 'none', string> = {
  Reader: 'night.shift@aegis-msp.example',
  Operator: 'sam.taylor@aegis-msp.example',
  Approver: 'priya.shah@aegis-msp.example',
  Administrator: 'alex.morgan@aegis-msp.example',
  none: 'jordan.lee@aegis-msp.example',
};

describe('every operation × every role (issue 18)', () => {
  let idp: IdentityProvider;
  let app: FastifyInstance;
  let dir: string;
  let azurite: RunningAzurite;
  let operations: Operation[];
  const lines: string[] = [];

  beforeAll(async () => {
    idp = await startIdentityProvider({ port: 0, audience: TEST_AUDIENCE, allowedOrigins: [] });
    dir = mkdtempSync(join(tmpdir(), 'aegis-roles-'));
    azurite = await startAzurite({ location: dir });
    app = await buildApp({
      // the audit trail is stored (a change is refused when it cannot be recorded, ADR 037)
      auditTables: createTablesClient({ connectionString: azurite.connectionString }),
      config: loadConfig({
        AEGIS_AUTH_JWKS_URL: idp.jwksUrl,
        AEGIS_AUTH_ISSUER: idp.issuer,
        AEGIS_AUTH_AUDIENCE: TEST_AUDIENCE,
        AEGIS_LOCAL_IDP_URL: idp.url,
        // Nothing answers here: an allowed call fails upstream, which is fine for this test.
        AEGIS_DEVOPS_ORG_URL: 'http://127.0.0.1:9/unused',
        AEGIS_TABLES_CONNECTION_STRING:
          'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:9/devstoreaccount1;',
        AEGIS_UPSTREAM_TIMEOUT_MS: '2000',
      }),
      logLevel: 'info',
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    await app.ready();
    operations = await listOperations(app);
  });
  afterAll(async () => {
    await app.close();
    await idp.close();
    await azurite.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares a role or an access on every operation, visible in the OpenAPI document', () => {
    expect(operations.filter((o) => !o.role && !o.access)).toEqual([]);
    expect(operations.find((o) => o.template === '/api/backups/{client}/restore')?.role).toBe(
      'Approver',
    );
  });

  for (const held of [...AEGIS_ROLES, 'none'] as const) {
    it(`an account with ${held === 'none' ? 'no Aegis role' : `the ${held} role`} gets 403 naming the role exactly where it lacks it`, async () => {
      const token = await idp.issueToken(ACCOUNT_OF[held]);
      const wrong: string[] = [];
      for (const operation of operations.filter((o) => o.role)) {
        const required = operation.role as AegisRole;
        const allowed = held !== 'none' && hasRole([held], required);
        const response = await app.inject({
          method: operation.method as 'GET',
          url: operation.path,
          headers: { authorization: `Bearer ${token}` },
          ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: {} }),
        });
        const forbidden =
          response.statusCode === 403 &&
          (response.json() as { message: string }).message.includes(`Aegis ${required} role`);
        if (allowed === forbidden) {
          wrong.push(
            `${operation.method} ${operation.template} (needs ${required}) → ${response.statusCode}`,
          );
        }
      }
      expect(wrong).toEqual([]);
    }, 60_000);
  }

  it('lets an account without any role ask who it is', async () => {
    const token = await idp.issueToken(ACCOUNT_OF.none);
    const response = await app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.json()).toEqual({
      upn: 'jordan.lee@aegis-msp.example',
      displayName: 'Jordan Lee',
      roles: [],
    });
  });

  it('writes an audit event for every change, with who, what, when and the result', async () => {
    const token = await idp.issueToken(ACCOUNT_OF.Approver);
    await app.inject({
      method: 'POST',
      url: '/api/backups/ABC/restore',
      headers: { authorization: `Bearer ${token}` },
      payload: { tag: 'backup-ABC-2026-11-20-0100', TenantAdminUserPW: 'Audit-secret!' },
    });
    const events = lines
      .map((line) => JSON.parse(line) as { msg: string; audit?: Record<string, unknown> })
      .filter((entry) => entry.msg === 'audit');
    // Refused attempts (403) by the other roles above are audited too; this is the Approver's.
    const restore = events.findLast(
      (entry) =>
        entry.audit?.action === 'POST /api/backups/:client/restore' &&
        (entry.audit.actor as { upn: string }).upn === 'priya.shah@aegis-msp.example',
    )?.audit;
    expect(restore).toMatchObject({
      actor: { upn: 'priya.shah@aegis-msp.example', roles: ['Approver'] },
      parameters: { params: { client: 'ABC' } },
      result: { outcome: 'failed' },
    });
    expect(typeof restore?.at).toBe('string');
    expect(lines.join('')).not.toContain('Audit-secret!');
    const stored = await createTablesClient({
      connectionString: azurite.connectionString,
    }).listEntities(AUDIT_TABLE);
    expect(stored.find((row) => row.EventId === restore?.id)).toMatchObject({
      ActorUpn: 'priya.shah@aegis-msp.example',
      ClientCode: 'ABC',
      Outcome: 'failed',
    });
    expect(JSON.stringify(stored)).not.toContain('Audit-secret!');
  });
});

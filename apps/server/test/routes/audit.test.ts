import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { createTablesClient, type AppTables } from '@aegis/connectors/tables';
import { AUDIT_TABLE, type AuditEvent } from '@aegis/domain';
import { seedAppTables, startAzurite, type RunningAzurite } from '@aegis/emulators';
import { AuditTrail } from '@aegis/insights';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { build, type TestApp } from '../helper';

const ADMIN = 'alex.morgan@aegis-msp.example';
const OPERATOR = 'sam.taylor@aegis-msp.example';
const READER = 'night.shift@aegis-msp.example';

type Page = { events: AuditEvent[]; continuationToken?: string };
/** Writes after the answer land soon, not at once; a busy machine gets time. */
const WAIT = { timeout: 15_000, interval: 100 };

function logLines(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { stream, lines };
}

function sampleEvent(id: string, at: string, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id,
    at,
    actor: { upn: 'kim.ops@aegis-msp.example', oid: 'oid-kim', roles: ['Operator'] },
    action: 'POST /api/backups/:client/runs',
    clientCode: 'CON',
    parameters: { params: { client: 'CON' } },
    result: { statusCode: 202, outcome: 'succeeded' },
    ...overrides,
  };
}

describe('the audit trail in Table storage (issue 18 §5)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let tables: AppTables;
  let t: TestApp;
  const log = logLines();
  const audit = async (query = ''): Promise<Page> => {
    const response = await t.injectAs(ADMIN, { method: 'GET', url: `/api/audit${query}` });
    expect({ query, status: response.statusCode }).toEqual({ query, status: 200 });
    return response.json<Page>();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-audit-'));
    azurite = await startAzurite({ location: dir });
    await seedAppTables(azurite.connectionString);
    tables = createTablesClient({ connectionString: azurite.connectionString });
    t = await build({ AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString }, undefined, {
      logLevel: 'info',
      logStream: log.stream,
    });
  });

  afterAll(async () => {
    await t?.close();
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a change with who, what, when, the client, the parameters and the result', async () => {
    const before = new Date().toISOString();
    const created = await t.injectAs(OPERATOR, {
      method: 'POST',
      url: '/api/app-tables',
      payload: { clientCode: 'AUD' },
    });
    expect(created.statusCode).toBe(201);
    // recorded before the change ran; its answer is merged in once sent
    await vi.waitFor(async () => {
      const [event] = (await audit(`?actor=${OPERATOR.toUpperCase()}&client=AUD`)).events;
      expect(event).toMatchObject({
        actor: { upn: OPERATOR, roles: ['Operator'] },
        action: 'POST /api/app-tables',
        clientCode: 'AUD',
        parameters: { body: { clientCode: 'AUD' } },
        result: { statusCode: 201, outcome: 'succeeded' },
      });
      expect(event!.at >= before).toBe(true);
    }, WAIT);
  });

  it('stores attempts refused by role or input, with secrets redacted', async () => {
    const refused = await t.injectAs(READER, {
      method: 'POST',
      url: '/api/backups/ABC/runs',
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    const bad = await t.injectAs(ADMIN, {
      method: 'POST',
      url: '/api/backups/ABC/restore',
      payload: {
        tag: 'backup-ABC-2026-11-20-0100',
        TenantAdminUserName: 'admin@contoso.example',
        username: 'admin@contoso.example',
        TenantAdminUserPW: 'Audit-secret!',
      },
    });
    expect(bad.statusCode).toBe(400);
    await vi.waitFor(async () => {
      const events = (await audit('?client=ABC')).events;
      expect(events.find((e) => e.actor.upn === READER)).toMatchObject({
        action: 'POST /api/backups/:client/runs',
        result: { statusCode: 403, outcome: 'failed' },
      });
      expect(events.find((e) => e.action === 'POST /api/backups/:client/restore')).toMatchObject({
        actor: { upn: ADMIN },
        parameters: {
          body: {
            TenantAdminUserName: '[Redacted]',
            username: '[Redacted]',
            TenantAdminUserPW: '[Redacted]',
          },
        },
        result: { statusCode: 400, outcome: 'failed' },
      });
    }, WAIT);
    const rows = JSON.stringify(await tables.listEntities(AUDIT_TABLE));
    expect(rows).not.toContain('Audit-secret!');
  });

  it('does not audit reads, nor what a Reader may do', async () => {
    await t.injectAs(READER, { method: 'GET', url: '/api/app-tables' });
    const rows = await tables.listEntities(AUDIT_TABLE);
    expect(rows.filter((row) => String(row.Action).startsWith('GET '))).toEqual([]);
  });

  it('pages newest first across months, filtered by actor, action and client', async () => {
    const trail = new AuditTrail(tables);
    await trail.record(sampleEvent('e1', '2026-08-30T10:00:00.000Z'));
    await trail.record(sampleEvent('e2', '2026-09-02T10:00:00.000Z'));
    await trail.record(sampleEvent('e3', '2026-09-20T10:00:00.000Z'));
    await trail.record(sampleEvent('e4', '2026-09-20T11:00:00.000Z', { clientCode: 'ABC' }));
    await trail.record(
      sampleEvent('e5', '2026-10-01T08:00:00.000Z', { action: 'POST /api/schedules/:folder' }),
    );

    const range = '?from=2026-08-01&to=2026-10-31&actor=kim.ops@aegis-msp.example';
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const page = await audit(
        `${range}&pageSize=2${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`,
      );
      expect(page.events.length).toBeLessThanOrEqual(2);
      ids.push(...page.events.map((event) => event.id));
      token = page.continuationToken;
    } while (token);
    expect(ids).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);

    expect((await audit('?month=2026-09&client=CON')).events.map((e) => e.id)).toEqual([
      'e3',
      'e2',
    ]);
    expect(
      (await audit('?from=2026-09-01&to=2026-09-20&client=CON')).events.map((e) => e.id),
    ).toEqual(['e3', 'e2']);
    expect(
      (
        await audit(`?month=2026-10&action=${encodeURIComponent('POST /api/schedules/:folder')}`)
      ).events.map((e) => e.id),
    ).toEqual(['e5']);
    expect((await audit('?month=2026-07')).events).toEqual([]);
  });

  it("finds 'Who' by part of the UPN, in any case, across pages of other people's events", async () => {
    const trail = new AuditTrail(tables);
    const dana = { upn: 'dana.whitfield@aegis-msp.example', oid: 'oid-dana', roles: ['Operator'] };
    await trail.record(sampleEvent('w1', '2026-06-03T10:00:00.000Z', { actor: dana }));
    for (let i = 0; i < 5; i++) {
      await trail.record(sampleEvent(`w-kim-${i}`, `2026-06-04T1${i}:00:00.000Z`));
    }
    await trail.record(sampleEvent('w2', '2026-06-05T10:00:00.000Z', { actor: dana }));
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const page = await audit(
        `?month=2026-06&actor=WHITF&pageSize=2${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`,
      );
      ids.push(...page.events.map((event) => event.id));
      token = page.continuationToken;
    } while (token);
    expect(ids).toEqual(['w2', 'w1']);
    expect((await audit('?month=2026-06&actor=kim.ops')).events).toHaveLength(5);
  });

  it('reads a range of days from Table storage, filtered there, each end inclusive (UTC)', async () => {
    const filters: string[] = [];
    /** What Table storage answered: only rows of the range, not whole months to filter here. */
    const loaded: string[] = [];
    const spied = new Proxy(tables, {
      get(target, name, receiver) {
        if (name === 'queryEntities') {
          return async (...args: Parameters<AppTables['queryEntities']>) => {
            filters.push(args[1]?.filter ?? '');
            const page = await target.queryEntities(...args);
            loaded.push(...page.entities.map((row) => String(row.EventId)));
            return page;
          };
        }
        const value: unknown = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const trail = new AuditTrail(spied);
    const at = (id: string, when: string) =>
      trail.record(sampleEvent(id, when, { clientCode: 'RNG' }));
    await at('r1', '2026-06-13T23:59:59.999Z');
    await at('r2', '2026-06-14T00:00:00.000Z');
    await at('r3', '2026-06-20T12:00:00.000Z');
    await at('r4', '2026-06-20T23:59:59.999Z');
    await at('r5', '2026-06-21T00:00:00.000Z');
    await at('r6', '2026-07-02T09:00:00.000Z');
    const ids = async (query: Parameters<AuditTrail['query']>[0], now?: Date) =>
      (await trail.query(query, now)).events.map((event) => event.id);
    const base = { client: 'RNG', pageSize: 50 };

    expect(await ids({ ...base, from: '2026-06-14', to: '2026-06-20' })).toEqual([
      'r4',
      'r3',
      'r2',
    ]);
    expect(loaded).toEqual(['r4', 'r3', 'r2']);
    expect(filters.at(-1)).toContain("At ge '2026-06-14T00:00:00.000Z'");
    expect(filters.at(-1)).toContain("At lt '2026-06-21T00:00:00.000Z'");
    expect(await ids({ ...base, from: '2026-06-20', to: '2026-06-20' })).toEqual(['r4', 'r3']);
    // one end alone: from up to today; to from 12 months back
    const now = new Date('2026-07-05T08:00:00.000Z');
    expect(await ids({ ...base, from: '2026-06-21' }, now)).toEqual(['r6', 'r5']);
    filters.length = 0;
    expect(await ids({ ...base, to: '2026-06-13' }, now)).toEqual(['r1']);
    expect(filters).toHaveLength(12);
    expect(filters[0]).toContain("PartitionKey eq '2026-06'");
    expect(filters[11]).toContain("PartitionKey eq '2025-07'");

    // the route: an Administrator's query with a range
    const page = await audit('?from=2026-06-14&to=2026-06-20&client=RNG');
    expect(page.events.map((event) => event.id)).toEqual(['r4', 'r3', 'r2']);
  });

  it('answers 400 naming the field for bad input', async () => {
    const field = async (query: string) => {
      const response = await t.injectAs(ADMIN, { method: 'GET', url: `/api/audit${query}` });
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
      return response.json<{ field: string }>().field;
    };
    expect(await field('?month=2026-13')).toBe('querystring.month');
    expect(await field('?month=2026-09&from=2026-09-01&to=2026-09-02')).toBe('querystring.month');
    expect(await field('?from=2026-09-02&to=2026-09-01')).toBe('querystring.to');
    expect(await field('?from=2026-02-30&to=2026-03-01')).toBe('querystring.from');
    expect(await field('?from=2026-09-01&to=2026-9-2')).toBe('querystring.to');
    expect(await field('?from=2024-01-01&to=2026-01-01')).toBe('querystring.from');
    // one end alone: the other is filled in (today, or 12 months back), and still checked
    expect(await field('?from=2020-01-01')).toBe('from');
    expect(await field('?client=abc')).toBe('querystring.client');
    expect(await field('?pageSize=0')).toBe('querystring.pageSize');
    expect(await field('?user=x')).toBe('querystring.user');
    expect(await field('?continuationToken=not-a-token')).toBe('continuationToken');
    const other = Buffer.from(JSON.stringify({ month: '2020-01' })).toString('base64url');
    expect(await field(`?month=2026-09&continuationToken=${other}`)).toBe('continuationToken');
  });

  it('tallies changes refused with 401 into one event per action, flushed at the latest on close', async () => {
    const log2 = logLines();
    // one instant: the attempts fall in one tally window (windows start on the minute, ADR 060)
    const instant = new Date();
    const other = await build(
      { AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString },
      undefined,
      {
        logLevel: 'info',
        logStream: log2.stream,
        now: () => instant,
      },
    );
    const post = (authorization?: string) =>
      other.app.inject({
        method: 'POST',
        url: '/api/app-tables',
        payload: { clientCode: 'UNA', secret: 'never-stored' },
        ...(authorization ? { headers: { authorization } } : {}),
      });
    try {
      for (const authorization of [undefined, undefined, 'Bearer not-a-jwt', 'Basic abc']) {
        expect((await post(authorization)).statusCode).toBe(401);
      }
      // reads refused with 401 are not changes: not tallied
      expect((await other.app.inject({ method: 'GET', url: '/api/app-tables' })).statusCode).toBe(
        401,
      );
      // nothing yet: the window is still open
      const trail = new AuditTrail(tables);
      const unauthenticated = { actor: '(unauthenticated)', pageSize: 50 };
      expect((await trail.query(unauthenticated)).events).toEqual([]);
    } finally {
      await other.close();
    }
    const events = (
      await new AuditTrail(tables).query({ actor: '(unauthenticated)', pageSize: 50 })
    ).events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: { upn: '(unauthenticated)', oid: '', roles: [] },
      action: 'POST /api/app-tables',
      parameters: {},
      result: { statusCode: 401, outcome: 'failed' },
      details: { attempts: 4, noToken: 3, invalidToken: 1, sources: ['127.0.0.1'] },
    });
    expect(events[0]).not.toHaveProperty('clientCode');
    expect(JSON.stringify(await tables.listEntities(AUDIT_TABLE))).not.toContain('never-stored');
    expect(log2.lines.some((line) => line.includes('"attempts":4'))).toBe(true);
  });

  it('keeps AegisAudit out of the app tables screens', async () => {
    expect(await tables.listTables()).toContain(AUDIT_TABLE);
    const list = await t.injectAs(ADMIN, { method: 'GET', url: '/api/app-tables' });
    expect(list.json<{ tables: string[] }>().tables).not.toContain(AUDIT_TABLE);
    for (const [method, url, payload] of [
      ['GET', `/api/app-tables/${AUDIT_TABLE}/rows`, undefined],
      ['PATCH', `/api/app-tables/${AUDIT_TABLE}/entities/2026-09/x`, { properties: { A: 'b' } }],
      ['POST', `/api/app-tables/${AUDIT_TABLE}/delete`, { keys: [] }],
      ['POST', `/api/app-tables/${AUDIT_TABLE}/properties`, { name: 'A', value: 'b' }],
      ['DELETE', `/api/app-tables/${AUDIT_TABLE}/properties/Outcome`, undefined],
      ['POST', `/api/app-tables/GENWorkstationApps/copy`, { source: AUDIT_TABLE, rowKeys: ['1'] }],
    ] as const) {
      const response = await t.injectAs(ADMIN, { method, url, ...(payload ? { payload } : {}) });
      expect([method, url, response.statusCode]).toEqual([method, url, 400]);
    }
    const rows = await tables.listEntities(AUDIT_TABLE);
    expect(rows.some((row) => row.Outcome === 'started' && row.Action === 'DELETE')).toBe(false);
  });
});

describe('when the audit trail cannot be written (ADR 037)', () => {
  let dir: string;
  let azurite: RunningAzurite;
  let real: AppTables;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aegis-audit-fail-'));
    azurite = await startAzurite({ location: dir });
    real = createTablesClient({ connectionString: azurite.connectionString });
  });
  afterAll(async () => {
    await azurite?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const failing = (what: 'begin' | 'complete'): AppTables =>
    new Proxy(real, {
      get(target, name, receiver) {
        const failingMethod = what === 'begin' ? 'upsertEntity' : 'updateEntity';
        if (name === failingMethod) {
          return async () => {
            throw new Error('Table storage is down');
          };
        }
        const value: unknown = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  /** Creates the client table `code` as the Operator, with the audit write `what` failing. */
  const createTableWhile = async (what: 'begin' | 'complete', code: string) => {
    const log = logLines();
    const t = await build({ AEGIS_TABLES_CONNECTION_STRING: azurite.connectionString }, undefined, {
      auditTables: failing(what),
      logLevel: 'info',
      logStream: log.stream,
    });
    try {
      const response = await t.injectAs(OPERATOR, {
        method: 'POST',
        url: '/api/app-tables',
        payload: { clientCode: code },
      });
      // the error line is written once the answer is sent when the second write fails
      const storeError = await vi.waitFor(() => {
        const entry = log.lines
          .map((line) => JSON.parse(line) as { level: number; msg: string; audit?: AuditEvent })
          .find((e) => e.msg === 'audit event could not be stored');
        if (!entry) throw new Error('no error line yet');
        return entry;
      }, WAIT);
      return { response, storeError };
    } finally {
      await t.close();
    }
  };

  it('refuses the change with 503 when it cannot be recorded first, and logs the event', async () => {
    const { response, storeError } = await createTableWhile('begin', 'NOP');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(response.json<{ message: string }>().message).toMatch(
      /audit trail could not be written, so nothing was changed/,
    );
    expect(await real.listTables()).not.toContain('NOPWorkstationApps');
    expect(storeError).toMatchObject({
      level: 50,
      audit: { actor: { upn: OPERATOR }, action: 'POST /api/app-tables', clientCode: 'NOP' },
    });
  });

  it('keeps the answer of a change already made when its result cannot be stored, and logs it', async () => {
    const { response, storeError } = await createTableWhile('complete', 'YES');
    expect(response.statusCode).toBe(201);
    expect(await real.listTables()).toContain('YESWorkstationApps');
    expect(storeError).toMatchObject({
      level: 50,
      audit: { clientCode: 'YES', result: { statusCode: 201, outcome: 'succeeded' } },
    });
    // the row recorded before the change stays, marked started: an auditor sees the attempt
    const rows = await real.listEntities(AUDIT_TABLE);
    expect(rows.find((row) => row.ClientCode === 'YES')).toMatchObject({ Outcome: 'started' });
  });

  it('answers 503 for the audit screen when Table storage is not configured', async () => {
    const t = await build();
    try {
      const response = await t.injectAs(ADMIN, { method: 'GET', url: '/api/audit' });
      expect(response.statusCode).toBe(503);
    } finally {
      await t.close();
    }
  });
});

import { AUDIT_ACTION_TEXT } from '@aegis/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, type TestApp } from '../helper';
import { listOperations } from '../openapi-operations';

describe('the audit trail says what every change did in words (issue 27)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('has a phrase for the action of every non-GET operation, as the audit plugin records it', async () => {
    const actions = (await listOperations(t.app))
      .filter((o) => o.method !== 'GET')
      // the audit plugin records Fastify's route template: /api/backups/:client/restore
      .map((o) => `${o.method} ${o.template.replace(/\{([^}]+)\}/g, ':$1')}`);
    expect(actions.length).toBeGreaterThan(20);
    expect(actions.filter((action) => !(action in AUDIT_ACTION_TEXT))).toEqual([]);
  });
});

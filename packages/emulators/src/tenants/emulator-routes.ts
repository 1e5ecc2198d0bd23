// Admin endpoints of the tenant emulator (no auth, emulator only), like the DevOps fault switch:
//   GET    /_emulator/health
//   GET    /_emulator/tenants                          every tenant with its scenarios
//   GET    /_emulator/tenants/{tenant}                 one tenant (id, domain or client code)
//   GET    /_emulator/tenants/{tenant}/scenarios
//   PATCH  /_emulator/tenants/{tenant}/scenarios       merge switches, e.g. {"consentDenied":true}
//   DELETE /_emulator/tenants/{tenant}/scenarios       back to defaults
//   POST   /_emulator/tenants/{tenant}/consent         what accepting the consent page does
//   GET    /_emulator/tenants/{tenant}/drift           what changed since the last capture
//   POST   /_emulator/tenants/{tenant}/drift           the Global Administrator changes a setting:
//          {"workload":"Category/Kind","object":"<id or name>","set":{…}} or "remove":true
//   GET    /_emulator/tenants/{tenant}/objects?workload=Category/Kind&object=<id or name>
//          one object as the tenant holds it now (what a test reads back after a deploy)
//   GET    /_emulator/tenants/{tenant}/approvals       Multi Admin Approval requests waiting
//   POST   /_emulator/tenants/{tenant}/approvals/{id}/approve
//   POST   /_emulator/reset                            all tenants back to their seeded state, and
//                                                      the mail and webhooks received forgotten
import { hasPublicApi, workloadFor } from '@aegis/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import { AUDIT_LOG_SWITCH_VALUES } from './audit-log-routes';
import type { EmulatorDeliveries } from './deliveries';
import { namesWorkload } from './failing-workload';
import type { SimulatedTenant } from './registry';
import type { TenantWorld } from './world';

const scenarioPatch = z
  .object({
    consentDenied: z.boolean(),
    permissionsMisconfigured: z.boolean(),
    servicePrincipalPresentInTenant: z.uuid().nullable(),
    servicePrincipalFoundOnSearch: z.number().int().min(1).max(100).nullable(),
    propagationDelayInMs: z.number().int().min(0).max(600_000).nullable(),
    failingRoleAssignment: z.string().min(1).nullable(),
    noDefaultSubscription: z.boolean(),
    throttle: z
      .object({
        requests: z.number().int().min(1).max(1000),
        retryAfterInSeconds: z.number().int().min(0).max(300),
      })
      .nullable(),
    multiAdminApproval: z.boolean(),
    failingWorkload: z
      .object({
        workload: z.string().refine(namesWorkload, {
          message: "names no workload: use 'Category/Kind' or 'Category', e.g. 'Exchange'",
        }),
        status: z.number().int().min(400).max(599),
      })
      .strict()
      .nullable(),
    auditLogUnavailable: z
      .object({ log: z.enum(AUDIT_LOG_SWITCH_VALUES), reason: z.enum(['licence', 'permission']) })
      .strict()
      .nullable(),
  })
  .partial()
  .strict();

const consentBody = z.object({ clientId: z.string().min(1) }).strict();

const driftBody = z.union([
  z
    .object({
      workload: z.string().refine(isReadableWorkload, {
        message: "names no workload with a public API: use 'Category/Kind'",
      }),
      object: z.string().min(1),
      set: z.record(z.string(), z.json()).refine((set) => Object.keys(set).length > 0, {
        message: 'names no property to set',
      }),
    })
    .strict(),
  z
    .object({
      workload: z.string().refine(isReadableWorkload, {
        message: "names no workload with a public API: use 'Category/Kind'",
      }),
      object: z.string().min(1),
      remove: z.literal(true),
    })
    .strict(),
]);

function isReadableWorkload(key: string): boolean {
  const [category = '', kind = ''] = key.split('/');
  const workload = workloadFor(category, kind);
  return workload !== undefined && hasPublicApi(workload);
}

function describe(world: TenantWorld, tenant: SimulatedTenant) {
  return { ...tenant, scenarios: world.scenarios(tenant.tenantId) };
}

export function registerEmulatorRoutes(
  app: FastifyInstance,
  world: TenantWorld,
  deliveries: EmulatorDeliveries,
): void {
  app.get('/_emulator/health', () => ({ status: 'ok', tenants: world.tenants.length }));
  app.get('/_emulator/tenants', () => ({
    value: world.tenants.map((t) => describe(world, t)),
  }));

  app.get<{ Params: { tenant: string } }>('/_emulator/tenants/:tenant', async (request, reply) => {
    const tenant = world.find(request.params.tenant);
    if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
    return describe(world, tenant);
  });
  app.get<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/scenarios',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      return world.scenarios(tenant.tenantId);
    },
  );
  app.patch<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/scenarios',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      const parsed = scenarioPatch.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply.code(400).send({
          message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
        });
      }
      const change = Object.fromEntries(
        Object.entries(parsed.data).filter(([, value]) => value !== undefined),
      );
      return world.setScenarios(tenant.tenantId, change);
    },
  );
  app.delete<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/scenarios',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      world.resetScenarios(tenant.tenantId);
      return reply.code(204).send();
    },
  );
  app.post<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/consent',
    async (request, reply) => {
      const parsed = consentBody.safeParse(request.body ?? {});
      if (!parsed.success) return reply.code(400).send({ message: 'clientId: required' });
      const result = world.adminConsent({
        tenant: request.params.tenant,
        clientId: parsed.data.clientId,
      });
      return reply.code(result.ok ? 200 : 400).send(result);
    },
  );
  app.get<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/approvals',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      return {
        value: [...world.state(tenant.tenantId).approvals.values()].map(
          ({ apply: _apply, ...approval }) => approval,
        ),
      };
    },
  );
  app.post<{ Params: { tenant: string; id: string } }>(
    '/_emulator/tenants/:tenant/approvals/:id/approve',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      if (!world.state(tenant.tenantId).approve(request.params.id)) {
        return reply.code(404).send({ message: `No approval request ${request.params.id}` });
      }
      return reply.code(204).send();
    },
  );
  app.get<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/drift',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      return {
        value: world.state(tenant.tenantId).drift.map((d) => ({
          kind: d.kind,
          ...('key' in d ? { key: d.key } : { workload: d.workload }),
          note: d.note,
        })),
      };
    },
  );
  app.post<{ Params: { tenant: string } }>(
    '/_emulator/tenants/:tenant/drift',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      const parsed = driftBody.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply.code(400).send({
          message: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
        });
      }
      const { workload: key, object } = parsed.data;
      const [category = '', kind = ''] = key.split('/');
      const workload = workloadFor(category, kind)!;
      const changed = world
        .state(tenant.tenantId)
        .changeByAdministrator(
          workload,
          object,
          'set' in parsed.data ? { set: parsed.data.set } : { remove: true },
        );
      if (!changed) return reply.code(404).send({ message: `No ${object} in ${key}` });
      return { workload: key, before: changed.before, after: changed.after ?? null };
    },
  );
  app.get<{ Params: { tenant: string }; Querystring: { workload?: string; object?: string } }>(
    '/_emulator/tenants/:tenant/objects',
    async (request, reply) => {
      const tenant = world.find(request.params.tenant);
      if (!tenant) return reply.code(404).send({ message: `No tenant ${request.params.tenant}` });
      const { workload: key = '', object = '' } = request.query;
      const [category = '', kind = ''] = key.split('/');
      const workload = workloadFor(category, kind);
      if (!workload) return reply.code(400).send({ message: `workload: no workload '${key}'` });
      if (!object) return reply.code(400).send({ message: 'object is required' });
      const found = world.state(tenant.tenantId).findObject(workload, object);
      if (!found) return reply.code(404).send({ message: `No ${object} in ${key}` });
      return found[1];
    },
  );
  app.post('/_emulator/reset', async (_request, reply) => {
    world.reset();
    deliveries.clear();
    return reply.code(204).send();
  });
}

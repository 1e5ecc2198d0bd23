import {
  appDeployOnboardingPipelinesResponseSchema,
  assignRolesRequestSchema,
  assignRolesResponseSchema,
  enterpriseAppSearchSchema,
  globalAdminReaderRequestSchema,
  globalAdminReaderResponseSchema,
  tenantIdQuerySchema,
  tenantIdResponseSchema,
  tenantPipelinesResponseSchema,
} from '@aegis/contracts';
import { allRolesAssigned, isTenantPipelineFolder, stripFolder } from '@aegis/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import type { ClientTenantSession } from '../../plugins/client-tenant';
import {
  ClientTenantOnboarding,
  type ClientTenantApisFactory,
  type TenantDiscovery,
} from '../../services/client-tenant-onboarding';
import { PipelinesService } from '../../services/pipelines-service';

export interface OnboardingRoutesOptions {
  /** The Aegis enterprise app's application (client) id. */
  readonly appClientId: string | undefined;
  readonly project: string;
  readonly createClientTenantApis: ClientTenantApisFactory;
  readonly discoverTenant: TenantDiscovery;
}

import { onboardingRunRoutes } from './runs';

const tags = ['onboarding'];
/** Spec 2 §7: client tenant pipelines live in the folder 'Tenants'. */

/** Tenant and app-deploy onboarding, and the Global Admin tool (spec 2 §2, §4, §7). */
export const onboardingRoutes: FastifyPluginAsyncZod<OnboardingRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(onboardingRunRoutes, { project: options.project });

  const onboardingOf = (session: ClientTenantSession) => {
    const apis = options.createClientTenantApis(session);
    return new ClientTenantOnboarding(apis.graph, apis.arm);
  };
  const appId = () => {
    if (!options.appClientId) throw new Error('AEGIS_APP_CLIENT_ID is not configured');
    return options.appClientId;
  };

  app.get(
    '/api/onboarding/tenant-id',
    {
      config: { role: 'Administrator' },
      schema: { tags, querystring: tenantIdQuerySchema, response: { 200: tenantIdResponseSchema } },
    },
    async (request) => {
      const found = await options.discoverTenant(request.query.domain);
      return { tenantId: found?.tenantId ?? null, resolvedFrom: found?.resolvedFrom ?? null };
    },
  );

  app.get(
    '/api/onboarding/tenant-pipelines',
    {
      // a listing: every role sees the tenant baseline screen, only Administrators start its runs
      config: { role: 'Reader' },
      schema: { tags, response: { 200: tenantPipelinesResponseSchema } },
    },
    async (request) => {
      const pipelines = await request.devops.listPipelines(options.project);
      return {
        pipelines: pipelines
          .filter((p) => isTenantPipelineFolder(p.folder))
          .map((p) => ({ id: p.id, name: p.name, folder: stripFolder(p.folder) })),
      };
    },
  );

  app.get(
    '/api/onboarding/app-deploy/pipelines',
    {
      config: { role: 'Reader' },
      schema: { tags, response: { 200: appDeployOnboardingPipelinesResponseSchema } },
    },
    async (request) => ({
      pipelines: (
        await new PipelinesService(request.devops, request.pipelineRuns).listOnboardingPipelines()
      ).map(({ id, name, folder }) => ({ id, name, folder })),
    }),
  );

  app.get(
    '/api/onboarding/enterprise-app',
    {
      config: { role: 'Administrator' },
      schema: { tags, response: { 200: enterpriseAppSearchSchema } },
    },
    async (request) => {
      const onboarding = onboardingOf(await request.clientTenant());
      return onboarding.searchEnterpriseApp(appId());
    },
  );

  app.post(
    '/api/onboarding/roles',
    {
      config: { role: 'Administrator' },
      schema: {
        tags,
        body: assignRolesRequestSchema,
        response: { 200: assignRolesResponseSchema },
      },
    },
    async (request) => {
      const session = await request.clientTenant();
      const onboarding = onboardingOf(session);
      const statuses = await onboarding.assignRoles({
        appId: appId(),
        subscriptionName: request.body.subscriptionName,
      });
      request.log.info(
        { tenantId: session.tenantId, roles: statuses.map((s) => `${s.role}:${s.ok}`) },
        'onboarding roles assigned',
      );
      return { tenantId: session.tenantId, statuses, allRolesAssigned: allRolesAssigned(statuses) };
    },
  );

  // Open without an Aegis sign-in (spec 2 §2): the client's Global Administrator token is the
  // credential, checked by clientTenant().
  app.post(
    '/api/onboarding/global-admin/reader',
    {
      config: { access: 'public', auditAsClientTenantAdministrator: true },
      schema: {
        tags,
        body: globalAdminReaderRequestSchema,
        response: { 200: globalAdminReaderResponseSchema },
      },
    },
    async (request) => {
      const onboarding = onboardingOf(await request.clientTenant());
      return onboarding.assignReaderOnDefaultSubscription(request.body.enterpriseAppName);
    },
  );
};

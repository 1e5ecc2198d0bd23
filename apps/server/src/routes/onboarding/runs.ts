import {
  appDeployOnboardingNewRunRequestSchema,
  appDeployOnboardingRunRequestSchema,
  onboardingRunResponseSchema,
  tenantOnboardingLegacyRunRequestSchema,
  tenantOnboardingRunRequestSchema,
} from '@aegis/contracts';
import {
  isOnboardingPipelineOf,
  ALREADY_ONBOARDED_MESSAGE,
  appDeployOnboardingLegacyRun,
  appDeployOnboardingRun,
  ConflictError,
  tenantOnboardingLegacyRun,
  tenantOnboardingRun,
  type PipelineRunRequest,
} from '@aegis/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';
import { PipelinesService } from '../../services/pipelines-service';

const tags = ['onboarding'];

export interface OnboardingRunRoutesOptions {
  readonly project: string;
}

/**
 * Spec 2 §7: the onboarding pipelines, started through PipelineRuns with the catalogue's bodies
 * (credentials as secret variables, never logged or returned). The screens follow the run at
 * GET /api/projects/{project}/pipelines/{pipelineId}/runs/{id}.
 */
export const onboardingRunRoutes: FastifyPluginCallbackZod<OnboardingRunRoutesOptions> =
  registering((app, { project }) => {
    async function start(request: FastifyRequest, run: PipelineRunRequest) {
      const started = await request.pipelineRuns.start(project, run);
      return {
        id: started.id,
        pipelineId: started.pipelineId,
        project,
        state: started.state,
        result: started.result,
      };
    }

    /** Spec 2 §5, ADR 055: the client's app pipeline or a Tenants pipeline naming the code. */
    async function assertNotOnboarded(request: FastifyRequest, clientCode: string) {
      const pipelines = await new PipelinesService(
        request.devops,
        request.pipelineRuns,
      ).listOnboardingPipelines();
      if (pipelines.some((p) => isOnboardingPipelineOf(p, clientCode)))
        throw new ConflictError(ALREADY_ONBOARDED_MESSAGE);
    }

    const response = { 201: onboardingRunResponseSchema };

    app.post(
      '/api/onboarding/tenant/runs',
      {
        config: { role: 'Administrator' },
        schema: { tags, body: tenantOnboardingRunRequestSchema, response },
      },
      async (request, reply) => {
        const body = request.body;
        const run = tenantOnboardingRun({
          clientCode: body.clientCode,
          domain: body.domain,
          subscriptionForLogin: body.subscriptionName,
          tenantId: body.tenantId,
          enrollInPowerSupport: body.enrollInPowerSupport,
          region: body.region,
        });
        return reply.code(201).send(await start(request, run));
      },
    );

    app.post(
      '/api/onboarding/tenant-legacy/runs',
      {
        config: { role: 'Administrator' },
        schema: { tags, body: tenantOnboardingLegacyRunRequestSchema, response },
      },
      async (request, reply) => {
        const body = request.body;
        const run = tenantOnboardingLegacyRun({
          clientCode: body.clientCode,
          domain: body.domain,
          subscriptionForLogin: body.subscriptionName,
          username: body.username,
          password: body.password,
        });
        return reply.code(201).send(await start(request, run));
      },
    );

    app.post(
      '/api/onboarding/app-deploy/runs',
      {
        config: { role: 'Administrator' },
        schema: { tags, body: appDeployOnboardingRunRequestSchema, response },
      },
      async (request, reply) => {
        await assertNotOnboarded(request, request.body.clientCode);
        return reply
          .code(201)
          .send(await start(request, appDeployOnboardingLegacyRun(request.body)));
      },
    );

    app.post(
      '/api/onboarding/app-deploy-new/runs',
      {
        config: { role: 'Administrator' },
        schema: { tags, body: appDeployOnboardingNewRunRequestSchema, response },
      },
      async (request, reply) => {
        await assertNotOnboarded(request, request.body.clientCode);
        return reply.code(201).send(await start(request, appDeployOnboardingRun(request.body)));
      },
    );
  });

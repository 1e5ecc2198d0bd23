import type { AppTables } from '@aegis/connectors/tables';
import {
  clientDriftSchema,
  driftCheckStartedSchema,
  driftClientParamsSchema,
  driftRevertBodySchema,
  driftRevertStartedSchema,
  driftSettingsSchema,
  fleetDriftSchema,
} from '@aegis/contracts';
import { driftCheckRun, revertDriftRun } from '@aegis/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import { DriftService } from '../../services/drift-service';

export interface DriftRoutesOptions {
  readonly config: Pick<AegisConfig, 'AEGIS_DEVOPS_PROJECT'>;
  /** Aegis's own Table storage account, where the drift check records its results (ADR 063) */
  readonly tables: () => AppTables;
}

const tags = ['drift'];

/**
 * Drift of client tenants (issue 28, ADR 063): Reader to look, Operator to check a client now,
 * Approver to revert drift (as to restore policies into a tenant, ADR 069, 071), Administrator to
 * change a client's check intervals.
 */
export const driftRoutes: FastifyPluginCallbackZod<DriftRoutesOptions> = registering(
  (app, { config, tables }) => {
    const service = () => new DriftService(tables());

    app.get(
      '/api/drift',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description: "Every client's drift as its last scheduled check recorded it.",
          response: { 200: fleetDriftSchema },
        },
      },
      async () => service().fleet(),
    );

    app.get(
      '/api/drift/:client',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description:
            "A client's last drift check: each drifted object with its property changes and who changed it, the workloads not read, and the client's check settings.",
          params: driftClientParamsSchema,
          response: { 200: clientDriftSchema },
        },
      },
      async (request) => service().client(request.params.client),
    );

    app.post(
      '/api/drift/:client/checks',
      {
        config: { role: 'Operator' },
        schema: {
          tags,
          description: "Starts a full drift check of the client's tenant now (a pipeline run).",
          params: driftClientParamsSchema,
          response: { 202: driftCheckStartedSchema },
        },
      },
      async (request, reply) => {
        const run = await request.pipelineRuns.start(
          config.AEGIS_DEVOPS_PROJECT,
          driftCheckRun({ clientCode: request.params.client }),
        );
        return reply.code(202).send({
          runId: run.id,
          pipelineId: run.pipelineId,
          project: config.AEGIS_DEVOPS_PROJECT,
        });
      },
    );

    app.put(
      '/api/drift/:client/settings',
      {
        config: { role: 'Administrator' },
        schema: {
          tags,
          description:
            "Sets how often the client's tenant is checked: quick checks (5 to 1440 minutes) and full checks (60 to 10080 minutes, not shorter than quick), or none.",
          params: driftClientParamsSchema,
          body: driftSettingsSchema,
          response: { 200: driftSettingsSchema },
        },
      },
      async (request) => service().saveSettings(request.params.client, request.body),
    );

    app.post(
      '/api/drift/:client/revert-runs',
      {
        config: { role: 'Approver' },
        schema: {
          tags,
          description:
            "Puts drifted objects of the client's last check back into its tenant as the client's approved configuration on main has them: a run of the deploy pipeline (RestoreFrom main), which backs the tenant up first; an object added in the tenant is removed. Follow the run at GET /api/backups/{client}/restore-runs/{runId}.",
          params: driftClientParamsSchema,
          body: driftRevertBodySchema,
          response: { 201: driftRevertStartedSchema },
        },
      },
      async (request, reply) => {
        const { client } = request.params;
        const policies = await service().revertablePolicies(client, request.body.objects);
        const run = await request.pipelineRuns.start(
          config.AEGIS_DEVOPS_PROJECT,
          revertDriftRun({ clientCode: client, policies }),
        );
        return reply.code(201).send({
          runId: run.id,
          state: run.state,
          pipelineId: run.pipelineId,
          project: config.AEGIS_DEVOPS_PROJECT,
        });
      },
    );
  },
);

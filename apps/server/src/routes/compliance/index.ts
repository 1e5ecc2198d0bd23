import {
  acceptDeviationsBodySchema,
  acceptDeviationsResultSchema,
  acceptanceDecisionBodySchema,
  acceptanceRequestedSchema,
  acceptedDeviationsConfigSchema,
  addMatchesBodySchema,
  complianceParamsSchema,
  compliancePreviewBodySchema,
  policyDocumentQuerySchema,
  policyDocumentSchema,
  complianceQuerySchema,
  complianceReportSchema,
  matchingConfigSchema,
  removeMatchQuerySchema,
  revokeAcceptedQuerySchema,
} from '@aegis/contracts';
import { ComplianceService, createComplianceCaches, type ComplianceCaches } from '@aegis/insights';
import { ConfigRepositoryComplianceStore } from '@aegis/insights';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';

const tags = ['compliance'];

export interface ComplianceRoutesOptions {
  /** Shared between requests; the benchmark and tests may pass their own. */
  readonly caches?: ComplianceCaches;
  /** The clock of acceptance expiry and match timestamps; the app's clock. */
  readonly now?: () => Date;
}

/** Baseline Compliance (spec 3 §2, §4, §7, §8): the report, accepted deviations and policy matches. */
export const complianceRoutes: FastifyPluginCallbackZod<ComplianceRoutesOptions> = registering(
  (app, { caches = createComplianceCaches(), now }) => {
    const service = (request: FastifyRequest) =>
      new ComplianceService(
        new ConfigRepositoryComplianceStore(request.configRepository),
        caches,
        request.log,
        now,
      );

    app.get(
      '/api/compliance/:client',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          description:
            'The client (main, or a capture branch) against the company baseline on main, with saved matches and accepted deviations applied.',
          params: complianceParamsSchema,
          querystring: complianceQuerySchema,
          response: { 200: complianceReportSchema },
        },
      },
      async (request) => service(request).report(request.params.client, request.query.branch),
    );

    app.post(
      '/api/compliance/:client/preview',
      {
        config: { role: 'Reader', heavy: true },
        schema: {
          tags,
          description:
            'The report with matches the browser holds but the repository does not yet applied as well; nothing is written.',
          params: complianceParamsSchema,
          body: compliancePreviewBodySchema,
          response: { 200: complianceReportSchema },
        },
      },
      async (request) =>
        service(request).report(
          request.params.client,
          request.body.branch,
          request.body.pendingMatches,
        ),
    );

    app.get(
      '/api/compliance/:client/policy',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          description:
            "One policy document: the baseline's on main or the client's (main or a capture branch).",
          params: complianceParamsSchema,
          querystring: policyDocumentQuerySchema,
          response: { 200: policyDocumentSchema },
        },
      },
      async (request) =>
        service(request).policyDocument(
          request.params.client,
          request.query.side,
          request.query.path,
          request.query.branch,
        ),
    );

    app.get(
      '/api/compliance/:client/accepted-deviations',
      {
        config: { role: 'Reader' },
        schema: {
          tags,
          params: complianceParamsSchema,
          response: { 200: acceptedDeviationsConfigSchema },
        },
      },
      async (request) => service(request).getAcceptedDeviations(request.params.client),
    );

    app.post(
      '/api/compliance/:client/accepted-deviations',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description:
            "Accepts deviations of one policy: written to the client's .accepted-deviations.json on main (who, why, until when).",
          params: complianceParamsSchema,
          body: acceptDeviationsBodySchema,
          response: { 200: acceptDeviationsResultSchema, 202: acceptanceRequestedSchema },
        },
      },
      async (request, reply) => {
        const result = await service(request).accept(
          request.params.client,
          request.body,
          request.user.upn || request.user.displayName || 'user',
        );
        // a critical deviation waits for a second Approver (ADR 051)
        return 'pending' in result ? reply.code(202).send(result) : result;
      },
    );

    app.post(
      '/api/compliance/:client/accepted-deviations/decisions',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description:
            'Approves or rejects the acceptance of a critical deviation another Approver asked for (four eyes, ADR 051).',
          params: complianceParamsSchema,
          body: acceptanceDecisionBodySchema,
          response: { 200: acceptedDeviationsConfigSchema },
        },
      },
      async (request) =>
        service(request).decideAcceptance(
          request.params.client,
          request.body.path,
          request.body.decision,
          request.user.upn || '',
        ),
    );

    app.delete(
      '/api/compliance/:client/accepted-deviations',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description: 'Revokes the acceptance of one policy path.',
          params: complianceParamsSchema,
          querystring: revokeAcceptedQuerySchema,
          response: { 200: acceptedDeviationsConfigSchema },
        },
      },
      async (request) => service(request).revoke(request.params.client, request.query.path),
    );

    app.get(
      '/api/compliance/:client/matching',
      {
        config: { role: 'Reader' },
        schema: { tags, params: complianceParamsSchema, response: { 200: matchingConfigSchema } },
      },
      async (request) => service(request).getMatchingConfig(request.params.client),
    );

    app.post(
      '/api/compliance/:client/matching/matches',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description: "Saves confirmed matches to the client's .matching-config.json on main.",
          params: complianceParamsSchema,
          body: addMatchesBodySchema,
          response: { 200: matchingConfigSchema },
        },
      },
      async (request) => service(request).addMatches(request.params.client, request.body.matches),
    );

    app.delete(
      '/api/compliance/:client/matching/matches',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description: 'Deletes the match of one baseline policy (by baseline name).',
          params: complianceParamsSchema,
          querystring: removeMatchQuerySchema,
          response: { 200: matchingConfigSchema },
        },
      },
      async (request) =>
        service(request).removeMatch(request.params.client, request.query.baselineName),
    );

    app.delete(
      '/api/compliance/:client/matching',
      {
        config: { role: 'Approver', changesClientOnMain: true },
        schema: {
          tags,
          description: 'Clears every confirmed match of the client.',
          params: complianceParamsSchema,
          response: { 200: matchingConfigSchema },
        },
      },
      async (request) => service(request).clearMatches(request.params.client),
    );
  },
);

import {
  clientLayersBodySchema,
  clientParametersSchema,
  clientSettingsParamsSchema,
  parameterChangeBodySchema,
  promotionBodySchema,
  promotionPreviewSchema,
  promotionQuerySchema,
  proposedSettingsChangeSchema,
} from '@aegis/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { actorName } from '../../plugins/auth';
import { ClientSettingsService } from '../../services/client-settings-service';

const tags = ['clients'];

/**
 * A client's tenant parameters and baseline layers (issue 30 §1–2, ADR 073): Readers look;
 * Operators propose parameter changes and Administrators layer changes, each as a pull request a
 * second person approves.
 */
export const clientSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/clients/:client/parameters',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        description:
          "A client's tenant parameters with the policies of its effective baseline that use each, the parameters the baseline needs that it lacks, its layers and the open pull requests changing them.",
        params: clientSettingsParamsSchema,
        response: { 200: clientParametersSchema },
      },
    },
    async (request) =>
      new ClientSettingsService(request.configRepository).parameters(request.params.client),
  );

  app.post(
    '/api/clients/:client/parameters/changes',
    {
      config: { role: 'Operator' },
      schema: {
        tags,
        description:
          "Proposes setting and removing a client's parameters: a pull request of its parameters file that someone else approves.",
        params: clientSettingsParamsSchema,
        body: parameterChangeBodySchema,
        response: { 201: proposedSettingsChangeSchema },
      },
    },
    async (request, reply) => {
      const proposed = await new ClientSettingsService(request.configRepository).proposeParameters(
        request.params.client,
        request.body,
        actorName(request.user),
      );
      return reply.code(201).send(proposed);
    },
  );

  app.post(
    '/api/clients/:client/layers/changes',
    {
      config: { role: 'Administrator' },
      schema: {
        tags,
        description:
          "Proposes the client's baseline layers, in order (a later layer wins): a pull request of its layers file that someone else approves.",
        params: clientSettingsParamsSchema,
        body: clientLayersBodySchema,
        response: { 201: proposedSettingsChangeSchema },
      },
    },
    async (request, reply) => {
      const proposed = await new ClientSettingsService(request.configRepository).proposeLayers(
        request.params.client,
        request.body,
        actorName(request.user),
      );
      return reply.code(201).send(proposed);
    },
  );

  app.get(
    '/api/clients/:client/promotions',
    {
      config: { role: 'Reader' },
      schema: {
        tags,
        description:
          "What promoting one of the client's captured policies into the company baseline (or a layer) would write: its values that equal the client's parameters replaced by their tokens, each substitution listed.",
        params: clientSettingsParamsSchema,
        querystring: promotionQuerySchema,
        response: { 200: promotionPreviewSchema },
      },
    },
    async (request) =>
      new ClientSettingsService(request.configRepository).promotionPreview(
        request.params.client,
        request.query,
      ),
  );

  app.post(
    '/api/clients/:client/promotions',
    {
      config: { role: 'Operator' },
      schema: {
        tags,
        description:
          "Proposes promoting one of the client's captured policies into the company baseline (or a layer), parameterised: a pull request someone else approves.",
        params: clientSettingsParamsSchema,
        body: promotionBodySchema,
        response: { 201: proposedSettingsChangeSchema },
      },
    },
    async (request, reply) => {
      const proposed = await new ClientSettingsService(request.configRepository).proposePromotion(
        request.params.client,
        request.body,
        actorName(request.user),
      );
      return reply.code(201).send(proposed);
    },
  );
};

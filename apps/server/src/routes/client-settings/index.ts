import {
  clientLayersBodySchema,
  clientParametersSchema,
  clientSettingsParamsSchema,
  parameterChangeBodySchema,
  promotionBodySchema,
  promotionPreviewSchema,
  promotionQuerySchema,
  proposedSettingsChangeSchema,
  type ProposedSettingsChangeDto,
} from '@aegis/contracts';
import type { AegisRole } from '@aegis/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';

import { registering } from '../../lib/registering';
import { actorName } from '../../plugins/auth';
import { ClientSettingsService } from '../../services/client-settings-service';

const tags = ['clients'];

/**
 * A client's tenant parameters and baseline layers (issue 30 §1–2, ADR 073): Readers look;
 * Operators propose parameter changes and Administrators layer changes, each as a pull request a
 * second person approves.
 */
export const clientSettingsRoutes: FastifyPluginCallbackZod = registering((app) => {
  /** A change proposed as a pull request a second person approves: 201 with the proposal. */
  const proposeRoute = <Body extends z.ZodType>(
    url: string,
    role: AegisRole,
    description: string,
    body: Body,
    propose: (
      service: ClientSettingsService,
      client: string,
      body: z.infer<Body>,
      by: string,
    ) => Promise<ProposedSettingsChangeDto>,
  ) =>
    app.post(
      url,
      {
        config: { role },
        schema: {
          tags,
          description,
          params: clientSettingsParamsSchema,
          body,
          response: { 201: proposedSettingsChangeSchema },
        },
      },
      async (request, reply) => {
        const proposed = await propose(
          new ClientSettingsService(request.configRepository),
          request.params.client,
          // validated against `body` above; the type provider cannot resolve a generic schema
          request.body as z.infer<Body>,
          actorName(request.user),
        );
        return reply.code(201).send(proposed);
      },
    );

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

  proposeRoute(
    '/api/clients/:client/parameters/changes',
    'Operator',
    "Proposes setting and removing a client's parameters: a pull request of its parameters file that someone else approves.",
    parameterChangeBodySchema,
    (service, client, body, by) => service.proposeParameters(client, body, by),
  );

  proposeRoute(
    '/api/clients/:client/layers/changes',
    'Administrator',
    "Proposes the client's baseline layers, in order (a later layer wins): a pull request of its layers file that someone else approves.",
    clientLayersBodySchema,
    (service, client, body, by) => service.proposeLayers(client, body, by),
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

  proposeRoute(
    '/api/clients/:client/promotions',
    'Operator',
    "Proposes promoting one of the client's captured policies into the company baseline (or a layer), parameterised: a pull request someone else approves.",
    promotionBodySchema,
    (service, client, body, by) => service.proposePromotion(client, body, by),
  );
});

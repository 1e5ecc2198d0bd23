import { auditPageSchema, auditQuerySchema } from '@aegis/contracts';
import type { AuditTrail } from '@aegis/insights';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import { registering } from '../../lib/registering';

export interface AuditRoutesOptions {
  readonly trail: AuditTrail;
}

const tags = ['audit'];

/** The audit trail (issue 18 §5): who changed what, when, with which result; newest first. */
export const auditRoutes: FastifyPluginCallbackZod<AuditRoutesOptions> = registering(
  (app, { trail }) => {
    app.get(
      '/api/audit',
      {
        config: { role: 'Administrator' },
        schema: { tags, querystring: auditQuerySchema, response: { 200: auditPageSchema } },
      },
      async (request) => trail.query(request.query),
    );
  },
);

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

import { registering } from '../lib/registering';
import {
  createPipelineRunsShared,
  PipelineRuns,
  type PipelineRunsShared,
} from '../services/pipeline-runs';

declare module 'fastify' {
  interface FastifyRequest {
    /** Starting and reading pipeline runs as the signed-in user, bodies from the catalogue (ADR 015). */
    pipelineRuns: PipelineRuns;
  }
}

export interface PipelineRunsPluginOptions {
  readonly shared?: PipelineRunsShared;
}

/** One PipelineRuns per request over `request.devops`, logging (redacted) to the request's logger. */
export const pipelineRunsPlugin = fp<PipelineRunsPluginOptions>(
  registering((app: FastifyInstance, { shared }) => {
    const everyone = shared ?? createPipelineRunsShared();
    app.decorateRequest('pipelineRuns', null as unknown as PipelineRuns);
    app.addHook('onRequest', (request, _reply, done) => {
      request.pipelineRuns = new PipelineRuns(request.devops, everyone, request.log);
      done();
    });
  }),
  { name: 'pipeline-runs', dependencies: ['devops'] },
);

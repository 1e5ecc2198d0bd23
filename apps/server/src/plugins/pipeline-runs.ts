import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
  async (app: FastifyInstance, { shared }) => {
    const everyone = shared ?? createPipelineRunsShared();
    app.decorateRequest('pipelineRuns', null as unknown as PipelineRuns);
    app.addHook('onRequest', async (request) => {
      request.pipelineRuns = new PipelineRuns(request.devops, everyone, request.log);
    });
  },
  { name: 'pipeline-runs', dependencies: ['devops'] },
);

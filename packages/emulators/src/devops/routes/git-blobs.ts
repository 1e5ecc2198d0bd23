import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';

import type { DevOpsState } from '../state';

import { DevOpsError, type Query } from './common';
import { attachment } from './git-items';
import { REPOSITORIES_PATH, repoContext, type RepoParams } from './git-repository-context';

export function registerGitBlobRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

  // Blobs - Get Blobs Zip: many blobs by object id in one request, a zip whose entries are the ids.
  app.post<{ Params: RepoParams; Body: unknown }>(
    `${base}/:repositoryId/blobs`,
    async (request, reply) => {
      const { git } = repoContext(request, state);
      const ids = request.body;
      if (
        !Array.isArray(ids) ||
        ids.some((id) => typeof id !== 'string' || !/^[0-9a-f]{40}$/i.test(id))
      ) {
        throw new DevOpsError(
          400,
          'InvalidArgumentValueException',
          'The request body must be a list of blob object ids.',
        );
      }
      const blobs = await git.readBlobs(ids as string[]);
      const missing = (ids as string[]).find((id) => !blobs.has(id));
      if (missing) {
        throw new DevOpsError(
          404,
          'GitObjectNotFoundException',
          `TF401181: The object '${missing}' does not exist.`,
        );
      }
      const name = (request.query as Query)['filename'];
      attachment(reply, true, typeof name === 'string' && name ? name : 'blobs.zip');
      reply.type('application/zip');
      const entries: Record<string, Uint8Array> = {};
      for (const [id, bytes] of blobs) entries[id] = new Uint8Array(bytes);
      return reply.send(Buffer.from(zipSync(entries)));
    },
  );
}

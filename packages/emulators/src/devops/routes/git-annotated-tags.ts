// Annotated Tags - Create / Get.
import type { FastifyInstance } from 'fastify';

import { type GitRepo } from '../git';
import type { DevOpsState } from '../state';

import { DevOpsError, callerIdentity } from './common';
import { REPOSITORIES_PATH, repoContext, type RepoParams } from './git-repository-context';

export function registerGitAnnotatedTagRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

  const annotatedTagJson = async (
    git: GitRepo,
    url: string,
    objectId: string,
  ): Promise<Record<string, unknown> | undefined> => {
    const tag = await git.catTag(objectId);
    if (!tag) return undefined;
    return {
      name: tag.tag,
      objectId,
      taggedObject: { objectId: tag.object, objectType: tag.type },
      taggedBy: {
        name: tag.tagger.name,
        email: tag.tagger.email,
        date: tag.tagger.date.toISOString(),
      },
      message: tag.message,
      url: `${url}/annotatedTags/${objectId}`,
    };
  };

  app.post<{
    Params: RepoParams;
    Body: { name?: string; message?: string; taggedObject?: { objectId?: string } };
  }>(`${base}/:repositoryId/annotatedtags`, async (request, reply) => {
    const { git, url } = repoContext(request, state);
    const body = request.body ?? {};
    const name = (body.name ?? '').replace(/^refs\/tags\//, '');
    const target = body.taggedObject?.objectId ?? '';
    if (!name || !/^[^\s~^:?*[\\]+$/.test(name) || name.includes('..')) {
      throw new DevOpsError(
        400,
        'InvalidArgumentValueException',
        `The tag name '${name}' is not valid.`,
      );
    }
    const commit = await git.revParse(`${target}^{commit}`);
    if (!commit) {
      throw new DevOpsError(
        404,
        'GitObjectNotFoundException',
        `TF401181: The object '${target}' does not exist.`,
      );
    }
    if (await git.revParse(`refs/tags/${name}`)) {
      throw new DevOpsError(
        409,
        'GitRefNameAlreadyExistsException',
        `TF401289: The ref name 'refs/tags/${name}' already exists.`,
      );
    }
    const who = callerIdentity(request);
    const objectId = await git.createAnnotatedTag(name, commit, body.message ?? '', {
      name: who.displayName,
      email: who.uniqueName,
      date: new Date(),
    });
    const json = await annotatedTagJson(git, url, objectId);
    return reply.code(201).send({ ...json, name: `refs/tags/${name}` });
  });

  app.get<{ Params: RepoParams & { objectId: string } }>(
    `${base}/:repositoryId/annotatedtags/:objectId`,
    async (request) => {
      const { git, url } = repoContext(request, state);
      const json = await annotatedTagJson(git, url, request.params.objectId);
      if (!json) {
        throw new DevOpsError(
          404,
          'GitObjectNotFoundException',
          `TF401181: The object '${request.params.objectId}' does not exist.`,
        );
      }
      return json;
    },
  );
}

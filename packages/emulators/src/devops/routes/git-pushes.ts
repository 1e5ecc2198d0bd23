// Git pushes (reference §5.8): commits built with git fast-import, the ref moved with
// compare-and-swap on oldObjectId; a stale id gets the real 409 TF401028.
import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import type { FastifyInstance } from 'fastify';

import { assertMayUpdateBranch, recordPush } from '../branch-policies';
import { type FileChange, type NewCommit } from '../git';
import type { DevOpsState } from '../state';

import {
  CHANGE_TYPES,
  CONTENT_TYPES,
  DevOpsError,
  callerIdentity,
  enumParam,
  identityRef,
  normalisePath,
} from './common';
import { commitJson, repoContext, repositoryJson, type RepoParams } from './git-repository-context';

interface PushBody {
  refUpdates?: { name?: string; oldObjectId?: string }[];
  commits?: {
    comment?: string;
    author?: { name?: string; email?: string; date?: string };
    committer?: { name?: string; email?: string; date?: string };
    changes?: {
      changeType?: string | number;
      item?: { path?: string };
      sourceServerItem?: string;
      newContent?: { content?: string; contentType?: string | number };
    }[];
  }[];
}

function staleError(refName: string): DevOpsError {
  return new DevOpsError(
    409,
    'GitReferenceStaleException',
    `TF401028: The reference '${refName}' has already been updated by another client, so you cannot update it. Please try again.`,
    'Microsoft.TeamFoundation.Git.Server.GitReferenceStaleException, Microsoft.TeamFoundation.Git.Server',
  );
}

function invalid(message: string): DevOpsError {
  return new DevOpsError(400, 'InvalidArgumentValueException', message);
}

export function registerGitPushRoutes(app: FastifyInstance, state: DevOpsState): void {
  app.post<{ Params: RepoParams; Body: PushBody | undefined }>(
    '/:org/:project/_apis/git/repositories/:repositoryId/pushes',
    async (request, reply) => {
      const { git, url, repo, project } = repoContext(request, state);
      const body = request.body ?? {};
      const refUpdate = body.refUpdates?.[0];
      const refName = refUpdate?.name ?? '';
      if (!refUpdate || !/^refs\/heads\/[^\s~^:?*[\\]+$/.test(refName) || refName.includes('..')) {
        throw invalid('A push needs exactly one refUpdate naming a branch (refs/heads/...).');
      }
      if (!body.commits || body.commits.length === 0) {
        throw invalid('A push needs at least one commit.');
      }
      const oldObjectId = (refUpdate.oldObjectId ?? '').toLowerCase();
      if (!/^[0-9a-f]{40}$/.test(oldObjectId)) {
        throw invalid(`The oldObjectId '${refUpdate.oldObjectId ?? ''}' is not a valid object id.`);
      }
      const who = callerIdentity(request);
      assertMayUpdateBranch(state, repo.id, refName, who);
      const tip = await git.revParse(refName);
      let parent: string | undefined;
      if (tip) {
        if (oldObjectId !== tip) throw staleError(refName);
        parent = tip;
      } else if (oldObjectId !== ZERO_OBJECT_ID) {
        // New branch based on an existing commit (reference §5.8, example pushes8).
        parent = await git.revParse(`${oldObjectId}^{commit}`);
        if (!parent) throw staleError(refName);
      }

      const now = new Date();
      const mentioned = body.commits.flatMap((c) =>
        (c.changes ?? []).flatMap((ch) => [ch.item?.path ?? '', ch.sourceServerItem ?? '']),
      );
      const existing = await git.existingPaths(
        parent,
        mentioned.map((p) => normalisePath(p)).filter(Boolean),
      );
      const commits: NewCommit[] = body.commits.map((commit) => {
        const changes: FileChange[] = (commit.changes ?? []).map((change) => {
          const changeType = enumParam(change.changeType, CHANGE_TYPES, 'changeType');
          const itemPath = normalisePath(change.item?.path);
          if (!changeType || !itemPath)
            throw invalid('Each change needs a changeType and an item path.');
          if (changeType === 'delete') {
            if (!existing.has(itemPath)) {
              throw new DevOpsError(
                404,
                'GitItemNotFoundException',
                `TF401174: The item '/${itemPath}' could not be found in the repository '${repo.name}'.`,
              );
            }
            existing.delete(itemPath);
            return { changeType, path: itemPath };
          }
          if (changeType === 'rename') {
            const source = normalisePath(change.sourceServerItem);
            if (!existing.has(source)) {
              throw new DevOpsError(
                404,
                'GitItemNotFoundException',
                `TF401174: The item '/${source}' could not be found in the repository '${repo.name}'.`,
              );
            }
            existing.delete(source);
            existing.add(itemPath);
            return { changeType, path: itemPath, sourcePath: source };
          }
          if (changeType === 'add' && existing.has(itemPath)) {
            throw invalid(
              `The path '/${itemPath}' specified in the add operation already exists. Please specify a new path.`,
            );
          }
          if (changeType === 'edit' && !existing.has(itemPath)) {
            throw new DevOpsError(
              404,
              'GitItemNotFoundException',
              `TF401174: The item '/${itemPath}' could not be found in the repository '${repo.name}'.`,
            );
          }
          const contentType =
            enumParam(change.newContent?.contentType, CONTENT_TYPES, 'contentType') ?? 'rawText';
          const text = change.newContent?.content ?? '';
          existing.add(itemPath);
          return {
            changeType,
            path: itemPath,
            content:
              contentType === 'base64Encoded'
                ? Buffer.from(text, 'base64')
                : Buffer.from(text, 'utf8'),
          };
        });
        const person = (p: { name?: string; email?: string; date?: string } | undefined) => ({
          name: p?.name ?? who.displayName,
          email: p?.email ?? who.uniqueName,
          date: p?.date ? new Date(p.date) : now,
        });
        return {
          message: commit.comment ?? '',
          author: person(commit.author),
          committer: person(commit.committer),
          changes,
        };
      });

      const { commits: shas } = await git.importCommits(parent, commits);
      const newObjectId = shas[shas.length - 1] ?? '';
      if (!(await git.updateRef(refName, newObjectId, tip ?? ZERO_OBJECT_ID)))
        throw staleError(refName);

      const pushId = state.data.nextPushId++;
      recordPush(state, repo.id, refName, who);
      state.save();
      state.refUpdated({
        project,
        repository: repo,
        refName,
        oldObjectId: tip ?? ZERO_OBJECT_ID,
        newObjectId,
        pushedBy: who,
        pushId,
        date: now.toISOString(),
        commits: shas.map((commitId, i) => ({ commitId, comment: commits[i]?.message ?? '' })),
      });
      const main = await git.revParse('refs/heads/main');
      return reply.code(201).send({
        commits: await Promise.all(
          shas.map(async (sha) => commitJson(url, sha, await git.commitInfo(sha))),
        ),
        refUpdates: [
          { repositoryId: repo.id, name: refName, oldObjectId: tip ?? ZERO_OBJECT_ID, newObjectId },
        ],
        repository: repositoryJson(request, state, project, repo, {
          ...(main ? { defaultBranch: 'refs/heads/main' } : {}),
          size: 0,
        }),
        pushedBy: identityRef(request, state, who),
        pushId,
        date: now.toISOString(),
        url: `${url}/pushes/${pushId}`,
        _links: {
          self: { href: `${url}/pushes/${pushId}` },
          repository: { href: url },
          commits: { href: `${url}/pushes/${pushId}/commits` },
          pusher: { href: identityRef(request, state, who).url },
          refs: { href: `${url}/refs/${refName.slice('refs/'.length)}` },
        },
      });
    },
  );
}

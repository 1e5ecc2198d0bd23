// Items - Get / List: a file or folder at a version, as JSON, raw, text or zip (§5.2).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { zipSync } from 'fflate';

import { type GitRepo, type TreeEntry } from '../git';
import type { DevOpsState } from '../state';

import {
  DevOpsError,
  RECURSION_LEVELS,
  VERSION_TYPES,
  boolParam,
  enumParam,
  normalisePath,
  queryParam,
  wrap,
  type Query,
} from './common';
import { REPOSITORIES_PATH, repoContext, type RepoParams } from './git-repository-context';

type VersionType = keyof typeof VERSION_TYPES;

interface ResolvedVersion {
  commit: string;
  describe: string;
  versionType: VersionType;
}

/** Resolves the request's versionDescriptor (default: the default branch). */
async function resolveVersion(
  git: GitRepo,
  query: Query,
  prefix = 'versionDescriptor',
): Promise<ResolvedVersion> {
  const version = queryParam(query, `${prefix}.version`) ?? 'main';
  const versionType =
    enumParam(queryParam(query, `${prefix}.versionType`), VERSION_TYPES, 'versionType') ?? 'branch';
  const options = (queryParam(query, `${prefix}.versionOptions`) ?? 'none').toLowerCase();
  const label = versionType.charAt(0).toUpperCase() + versionType.slice(1);
  const describe = `<${label}: ${version} >`;
  let commit = await git.resolveCommit(version, versionType);
  if (
    commit &&
    (options === 'previouschange' ||
      options === '1' ||
      options === 'firstparent' ||
      options === '2')
  ) {
    commit = await git.revParse(`${commit}^1`);
  }
  if (!commit) {
    throw new DevOpsError(
      404,
      'GitUnresolvableToCommitException',
      `TF401175: The version descriptor ${describe} could not be resolved to a version commit.`,
    );
  }
  return { commit, describe, versionType };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  json: 'application/json',
  yml: 'text/plain',
  yaml: 'text/plain',
  md: 'text/plain',
  txt: 'text/plain',
  ps1: 'text/plain',
  xml: 'application/xml',
  png: 'image/png',
  zip: 'application/zip',
};

function contentMetadata(entry: TreeEntry) {
  const fileName = entry.path.split('/').pop() || '/';
  if (entry.type === 'tree') return { fileName };
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot + 1) : undefined;
  return {
    encoding: 65001,
    contentType:
      (extension && MIME_BY_EXTENSION[extension.toLowerCase()]) ?? 'application/octet-stream',
    fileName,
    ...(extension ? { extension } : {}),
  };
}

function itemJson(
  repoUrl: string,
  entry: TreeEntry,
  commit: string,
  options: { includeContentMetadata?: boolean; content?: string } = {},
) {
  const itemPath = `/${entry.path}`;
  return {
    objectId: entry.objectId,
    gitObjectType: entry.type,
    commitId: commit,
    path: itemPath,
    ...(entry.type === 'tree' ? { isFolder: true } : {}),
    ...(options.includeContentMetadata ? { contentMetadata: contentMetadata(entry) } : {}),
    ...(options.content !== undefined ? { content: options.content } : {}),
    url: `${repoUrl}/items${encodeURI(itemPath)}?versionType=Commit&version=${commit}&versionOptions=None`,
  };
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

type Format = 'json' | 'zip' | 'text' | 'octetStream';

function representation(request: FastifyRequest, query: Query): Format {
  const format = queryParam(query, '$format')?.toLowerCase();
  if (format === 'zip') return 'zip';
  if (format === 'text') return 'text';
  if (format === 'octetstream') return 'octetStream';
  if (format === 'json') return 'json';
  const accept = (request.headers.accept ?? '').toLowerCase();
  if (accept.includes('application/zip')) return 'zip';
  if (accept.includes('application/octet-stream')) return 'octetStream';
  if (accept.includes('text/plain')) return 'text';
  return 'json';
}

export function attachment(reply: FastifyReply, download: boolean, fileName: string): void {
  if (download) {
    reply.header('Content-Disposition', `attachment; filename="${fileName.replace(/"/g, '')}"`);
  }
}

export function registerGitItemRoutes(app: FastifyInstance, state: DevOpsState): void {
  const base = REPOSITORIES_PATH;

  const items = async (
    request: FastifyRequest<{ Params: RepoParams & { '*'?: string } }>,
    reply: FastifyReply,
  ) => {
    const { git, url, repo } = repoContext(request, state);
    const query = request.query as Query;
    const pathParam = queryParam(query, 'path') ?? request.params['*'];
    const scopePath = queryParam(query, 'scopePath');
    const itemPath = normalisePath(pathParam ?? scopePath ?? '/');
    const recursion =
      enumParam(queryParam(query, 'recursionLevel'), RECURSION_LEVELS, 'recursionLevel') ?? 'none';
    const includeContentMetadata = boolParam(query, 'includeContentMetadata');
    const download = boolParam(query, 'download');
    const version = await resolveVersion(git, query);
    const entry = await git.entryAt(version.commit, itemPath);
    if (!entry) {
      throw new DevOpsError(
        404,
        'GitItemNotFoundException',
        `TF401174: The item '/${itemPath}' could not be found in the repository '${repo.name}' at the version specified by '${version.describe}' (resolved to commit '${version.commit}').`,
      );
    }
    const format = representation(request, query);
    const name = itemPath.split('/').pop() || repo.name;

    if (format === 'zip') {
      attachment(reply, true, `${name}.zip`);
      reply.type('application/zip');
      if (entry.type === 'tree') return reply.send(git.archiveZip(version.commit, itemPath));
      const bytes = await git.readBlob(version.commit, itemPath);
      return reply.send(Buffer.from(zipSync({ [name]: new Uint8Array(bytes) })));
    }
    if (format === 'octetStream' || format === 'text') {
      if (entry.type !== 'blob') {
        throw new DevOpsError(
          400,
          'InvalidArgumentValueException',
          `The item '/${itemPath}' is a folder; ask for $format=zip or json.`,
        );
      }
      const bytes = await git.readBlob(version.commit, itemPath);
      attachment(reply, download, name);
      reply.type(format === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
      return reply.send(bytes);
    }

    const listRequested = scopePath !== undefined || recursion !== 'none';
    if (!listRequested) {
      let content: string | undefined;
      if (boolParam(query, 'includeContent') && entry.type === 'blob') {
        const bytes = await git.readBlob(version.commit, itemPath);
        content = isBinary(bytes) ? bytes.toString('base64') : bytes.toString('utf8');
      }
      attachment(reply, download, `${name}.json`);
      return itemJson(url, entry, version.commit, {
        includeContentMetadata: includeContentMetadata || entry.type === 'tree',
        ...(content !== undefined ? { content } : {}),
      });
    }

    const entries: TreeEntry[] = [entry];
    if (entry.type === 'tree' && recursion !== 'none') {
      entries.push(...(await git.listTree(version.commit, itemPath, recursion === 'full')));
    }
    return wrap(
      entries.map((e) =>
        itemJson(url, e, version.commit, {
          includeContentMetadata: includeContentMetadata || (e === entry && e.type === 'tree'),
        }),
      ),
    );
  };
  app.get(`${base}/:repositoryId/items`, items);
  app.get(`${base}/:repositoryId/items/*`, items);
}

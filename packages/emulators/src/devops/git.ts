// Real git repositories on disk, driven through the git CLI (issue 2 item 3: "not JSON pretending
// to be git"). One bare repository per DevOps repository.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';

import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';

export interface GitIdentity {
  name: string;
  email: string;
  date: Date;
}

class GitCommandError extends Error {
  override readonly name = 'GitCommandError';
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} exited with ${exitCode}: ${stderr.trim()}`);
  }
}

interface RunOptions {
  input?: Buffer | string;
  env?: Record<string, string>;
}

function spawnGit(gitDir: string, args: readonly string[], options: RunOptions = {}) {
  return spawn('git', [`--git-dir=${gitDir}`, ...args], {
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: os.tmpdir(),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * A git command's output as a stream (large answers such as archives are sent as git writes them,
 * not held in memory); the stream fails when git exits with an error.
 */
function streamGit(gitDir: string, args: readonly string[]): Readable {
  const child = spawnGit(gitDir, args);
  const out = new PassThrough();
  const err: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.stdout.pipe(out, { end: false });
  child.on('error', (error) => out.destroy(error));
  child.on('close', (code) => {
    if (code === 0) out.end();
    else out.destroy(new GitCommandError(args, code ?? -1, Buffer.concat(err).toString('utf8')));
  });
  child.stdin.end();
  out.on('close', () => {
    if (child.exitCode === null) child.kill();
  });
  return out;
}

async function runGit(
  gitDir: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(gitDir, args, options);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitCommandError(args, code ?? -1, Buffer.concat(err).toString('utf8')));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

function identityEnv(who: GitIdentity, role: 'AUTHOR' | 'COMMITTER'): Record<string, string> {
  return {
    [`GIT_${role}_NAME`]: who.name,
    [`GIT_${role}_EMAIL`]: who.email,
    [`GIT_${role}_DATE`]: `${Math.floor(who.date.getTime() / 1000)} +0000`,
  };
}

function fastImportIdentity(who: GitIdentity): string {
  return `${who.name} <${who.email}> ${Math.floor(who.date.getTime() / 1000)} +0000`;
}

/** C-style quoting understood by git fast-import. */
function quotePath(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

type TreeEntryType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  /** repository path without leading slash ('' = root) */
  path: string;
  type: TreeEntryType;
  objectId: string;
  size?: number;
}

export interface RefEntry {
  name: string;
  objectId: string;
  objectType: 'commit' | 'tag';
  /** commit a tag points at (annotated tags only) */
  peeledObjectId?: string;
  creatorName: string;
  creatorEmail: string;
  creatorDate: string;
}

export type FileChange =
  | { changeType: 'add' | 'edit'; path: string; content: Buffer }
  | { changeType: 'delete'; path: string }
  | { changeType: 'rename'; path: string; sourcePath: string };

export interface NewCommit {
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  changes: FileChange[];
}

export interface NewTag {
  name: string;
  /** index into the commits of the same import, or a commit sha */
  target: number | string;
  message: string;
  tagger: GitIdentity;
}

export interface DiffEntry {
  path: string;
  changeType: 'add' | 'edit' | 'delete';
  type: TreeEntryType;
  objectId: string;
  originalObjectId: string;
}

export interface CommitInfo {
  treeId: string;
  parents: string[];
  author: GitIdentity;
  committer: GitIdentity;
  comment: string;
}

/** How a history walk treats merges (Get Commits' `historyMode`). */
type HistoryMode =
  'simplifiedHistory' | 'firstParent' | 'fullHistory' | 'fullHistorySimplifyMerges';

export interface LogOptions {
  path?: string;
  skip?: number;
  max?: number;
  /** only with a path; default simplifiedHistory (git's default history simplification) */
  historyMode?: HistoryMode;
}

const HISTORY_MODE_ARGS: Record<HistoryMode, string[]> = {
  simplifiedHistory: [],
  firstParent: ['--first-parent'],
  fullHistory: ['--full-history'],
  fullHistorySimplifyMerges: ['--full-history', '--simplify-merges'],
};

function logArgs(format: string, start: string, options: LogOptions): string[] {
  const args = ['log', `--format=${format}`, `--skip=${options.skip ?? 0}`];
  if (options.max !== undefined) args.push(`--max-count=${options.max}`);
  if (options.path) args.push(...HISTORY_MODE_ARGS[options.historyMode ?? 'simplifiedHistory']);
  args.push(start);
  if (options.path) args.push('--', options.path);
  return args;
}

const COMMIT_FORMAT = '%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B';

function parseCommitFields(fields: readonly string[]): CommitInfo {
  const [
    treeId = '',
    parents = '',
    an = '',
    ae = '',
    at = '0',
    cn = '',
    ce = '',
    ct = '0',
    body = '',
  ] = fields;
  return {
    treeId,
    parents: parents.split(' ').filter(Boolean),
    author: { name: an, email: ae, date: new Date(Number(at) * 1000) },
    committer: { name: cn, email: ce, date: new Date(Number(ct) * 1000) },
    comment: body.replace(/\n+$/, '\n'),
  };
}

export class GitRepo {
  constructor(readonly gitDir: string) {}

  static async init(gitDir: string): Promise<GitRepo> {
    await mkdir(path.dirname(gitDir), { recursive: true });
    await runGit(gitDir, ['init', '--bare', '--quiet', '--initial-branch=main', gitDir]);
    return new GitRepo(gitDir);
  }

  run(args: readonly string[], options?: RunOptions): Promise<Buffer> {
    return runGit(this.gitDir, args, options);
  }

  async revParse(rev: string): Promise<string | undefined> {
    try {
      const out = await this.run(['rev-parse', '--verify', '--quiet', rev]);
      return out.toString('utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The object ids of many refs with one `git cat-file --batch-check` ('' for a missing one): a
   * seed writes hundreds of backup tags, and a process per ref was most of its time.
   */
  async objectIdsOf(refs: readonly string[]): Promise<string[]> {
    if (refs.length === 0) return [];
    const out = await this.run(['cat-file', '--batch-check=%(objectname)'], {
      input: refs.join('\n') + '\n',
    });
    return out
      .toString('utf8')
      .split('\n')
      .slice(0, refs.length)
      .map((line) => (/^[0-9a-f]{40,64}$/.test(line) ? line : ''));
  }

  /** Resolves a branch, tag or commit to a commit sha. */
  async resolveCommit(
    version: string,
    versionType: 'branch' | 'tag' | 'commit',
  ): Promise<string | undefined> {
    if (versionType === 'commit') {
      if (!/^[0-9a-f]{4,40}$/i.test(version)) return undefined;
      return this.revParse(`${version}^{commit}`);
    }
    const prefix = versionType === 'branch' ? 'refs/heads/' : 'refs/tags/';
    const name = version.startsWith('refs/') ? version : `${prefix}${version}`;
    return this.revParse(`${name}^{commit}`);
  }

  /**
   * Commit shas reachable from `start`, newest first (git log order), optionally only commits that
   * touched `repoPath`, after skipping `skip` and at most `max`.
   */
  async log(start: string, options: LogOptions = {}): Promise<string[]> {
    const out = (await this.run(logArgs('%H', start, options))).toString('utf8');
    return out.split('\n').filter(Boolean);
  }

  /** {@link log} with each commit's details, from one `git log`. */
  async logInfo(
    start: string,
    options: LogOptions = {},
  ): Promise<(CommitInfo & { sha: string })[]> {
    const out = (await this.run(logArgs(`%H%x00${COMMIT_FORMAT}%x1e`, start, options))).toString(
      'utf8',
    );
    return out
      .split('\x1e')
      .map((record) => record.replace(/^\n/, ''))
      .filter(Boolean)
      .map((record) => {
        const [sha = '', ...fields] = record.split('\0');
        return { sha, ...parseCommitFields(fields) };
      });
  }

  /** The entry at a path of a commit (root = the commit's tree). */
  async entryAt(commit: string, repoPath: string): Promise<TreeEntry | undefined> {
    if (repoPath === '') {
      const tree = await this.revParse(`${commit}^{tree}`);
      return tree ? { path: '', type: 'tree', objectId: tree } : undefined;
    }
    const out = await this.run(['ls-tree', '-l', '-z', commit, '--', repoPath]);
    const entries = parseLsTree(out, '');
    return entries.find((e) => e.path === repoPath);
  }

  /** Entries under a folder: one level or the full subtree (trees included). */
  async listTree(commit: string, folder: string, recursive: boolean): Promise<TreeEntry[]> {
    const treeish = folder === '' ? `${commit}^{tree}` : `${commit}:${folder}`;
    const args = ['ls-tree', '-l', '-z'];
    if (recursive) args.push('-r', '-t');
    args.push(treeish);
    const out = await this.run(args);
    return parseLsTree(out, folder);
  }

  async readBlob(commit: string, repoPath: string): Promise<Buffer> {
    return this.run(['cat-file', 'blob', `${commit}:${repoPath}`]);
  }

  /** Reads many blobs by object id with one `git cat-file --batch`. */
  async readBlobs(objectIds: readonly string[]): Promise<Map<string, Buffer>> {
    const result = new Map<string, Buffer>();
    if (objectIds.length === 0) return result;
    const out = await this.run(['cat-file', '--batch'], { input: objectIds.join('\n') + '\n' });
    let offset = 0;
    while (offset < out.length) {
      const eol = out.indexOf(0x0a, offset);
      const header = out.subarray(offset, eol).toString('utf8').split(' ');
      const [sha, , sizeText] = header;
      const size = Number(sizeText);
      if (!sha || header[1] === 'missing') {
        offset = eol + 1;
        continue;
      }
      result.set(sha, out.subarray(eol + 1, eol + 1 + size));
      offset = eol + 1 + size + 1;
    }
    return result;
  }

  /** A folder of a commit as a zip archive, streamed as git writes it. */
  archiveZip(commit: string, folder: string): Readable {
    const treeish = folder === '' ? commit : `${commit}:${folder}`;
    return streamGit(this.gitDir, ['archive', '--format=zip', treeish]);
  }

  async listRefs(): Promise<RefEntry[]> {
    const format = [
      '%(refname)',
      '%(objectname)',
      '%(objecttype)',
      '%(*objectname)',
      '%(creator)',
      '%(creatordate:iso-strict)',
    ].join('%00');
    const out = await this.run(['for-each-ref', `--format=${format}`]);
    return out
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', objectId = '', objectType, peeled, creator = '', date = ''] =
          line.split('\0');
        const match = /^(.*?) <([^>]*)>/.exec(creator);
        return {
          name,
          objectId,
          objectType: objectType === 'tag' ? 'tag' : 'commit',
          ...(peeled ? { peeledObjectId: peeled } : {}),
          creatorName: match?.[1] ?? '',
          creatorEmail: match?.[2] ?? '',
          creatorDate: date,
        } satisfies RefEntry;
      });
  }

  /** Compare-and-swap a ref; `oldId` ZERO_OBJECT_ID means "must not exist", newId ZERO_OBJECT_ID deletes. */
  async updateRef(name: string, newId: string, oldId: string): Promise<boolean> {
    try {
      if (newId === ZERO_OBJECT_ID) await this.run(['update-ref', '-d', name, oldId]);
      else await this.run(['update-ref', name, newId, oldId]);
      return true;
    } catch {
      return false;
    }
  }

  async createAnnotatedTag(
    name: string,
    commit: string,
    message: string,
    tagger: GitIdentity,
  ): Promise<string> {
    await this.run(['tag', '-a', name, commit, '-F', '-'], {
      input: message,
      env: identityEnv(tagger, 'COMMITTER'),
    });
    const sha = await this.revParse(`refs/tags/${name}`);
    if (!sha) throw new Error(`tag ${name} was not created`);
    return sha;
  }

  async catTag(
    objectId: string,
  ): Promise<
    { object: string; type: string; tag: string; tagger: GitIdentity; message: string } | undefined
  > {
    let out: string;
    try {
      out = (await this.run(['cat-file', 'tag', objectId])).toString('utf8');
    } catch {
      return undefined;
    }
    const [head = '', ...rest] = out.split('\n\n');
    const fields = new Map(
      head.split('\n').map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]),
    );
    const tagger = /^(.*?) <([^>]*)> (\d+)/.exec(fields.get('tagger') ?? '');
    return {
      object: fields.get('object') ?? '',
      type: fields.get('type') ?? '',
      tag: fields.get('tag') ?? '',
      tagger: {
        name: tagger?.[1] ?? '',
        email: tagger?.[2] ?? '',
        date: new Date(Number(tagger?.[3] ?? 0) * 1000),
      },
      message: rest.join('\n\n'),
    };
  }

  async commitInfo(sha: string): Promise<CommitInfo> {
    const out = (await this.run(['show', '-s', `--format=${COMMIT_FORMAT}`, sha])).toString('utf8');
    return parseCommitFields(out.split('\0'));
  }

  /**
   * Writes commits (and annotated tags) with one `git fast-import`, on a temporary ref; returns
   * the commit and tag shas. Moving real refs is left to the caller (compare-and-swap).
   */
  async importCommits(
    parent: string | undefined,
    commits: readonly NewCommit[],
    tags: readonly NewTag[] = [],
  ): Promise<{ commits: string[]; tags: string[] }> {
    const tmpRef = `refs/aegis-import/${randomUUID()}`;
    const chunks: Buffer[] = [];
    const push = (text: string) => chunks.push(Buffer.from(text, 'utf8'));
    const data = (bytes: Buffer) => {
      push(`data ${bytes.length}\n`);
      chunks.push(bytes);
      push('\n');
    };
    commits.forEach((commit, index) => {
      push(`commit ${tmpRef}\nmark :${index + 1}\n`);
      push(`author ${fastImportIdentity(commit.author)}\n`);
      push(`committer ${fastImportIdentity(commit.committer)}\n`);
      data(Buffer.from(commit.message, 'utf8'));
      if (index === 0 && parent) push(`from ${parent}\n`);
      for (const change of commit.changes) {
        if (change.changeType === 'delete') push(`D ${quotePath(change.path)}\n`);
        else if (change.changeType === 'rename')
          push(`R ${quotePath(change.sourcePath)} ${quotePath(change.path)}\n`);
        else {
          push(`M 100644 inline ${quotePath(change.path)}\n`);
          data(change.content);
        }
      }
      push('\n');
    });
    tags.forEach((tag) => {
      const from = typeof tag.target === 'number' ? `:${tag.target + 1}` : tag.target;
      push(`tag ${tag.name}\nfrom ${from}\ntagger ${fastImportIdentity(tag.tagger)}\n`);
      data(Buffer.from(tag.message, 'utf8'));
    });
    const marksFile = path.join(os.tmpdir(), `aegis-marks-${randomUUID()}`);
    try {
      await this.run(['fast-import', '--quiet', `--export-marks=${marksFile}`], {
        input: Buffer.concat(chunks),
      });
      const marks = new Map(
        (await readFile(marksFile, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const [mark = '', sha = ''] = line.split(' ');
            return [Number(mark.slice(1)), sha] as const;
          }),
      );
      const commitIds = commits.map((_, i) => marks.get(i + 1) ?? '');
      const tagIds = await this.objectIdsOf(tags.map((tag) => `refs/tags/${tag.name}`));
      return { commits: commitIds, tags: tagIds };
    } finally {
      await this.run(['update-ref', '-d', tmpRef]).catch(() => undefined);
      await rm(marksFile, { force: true });
    }
  }

  /** Which of the given paths exist in a commit. */
  async existingPaths(commit: string | undefined, paths: readonly string[]): Promise<Set<string>> {
    if (!commit || paths.length === 0) return new Set();
    const out = await this.run(['ls-tree', '-r', '-z', '--name-only', commit, '--', ...paths]);
    return new Set(out.toString('utf8').split('\0').filter(Boolean));
  }

  async mergeBase(a: string, b: string): Promise<string | undefined> {
    try {
      return (await this.run(['merge-base', a, b])).toString('utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  async aheadBehind(base: string, target: string): Promise<{ ahead: number; behind: number }> {
    const out = (await this.run(['rev-list', '--left-right', '--count', `${base}...${target}`]))
      .toString('utf8')
      .trim()
      .split(/\s+/);
    return { behind: Number(out[0] ?? 0), ahead: Number(out[1] ?? 0) };
  }

  async diff(base: string, target: string): Promise<DiffEntry[]> {
    const out = await this.run(['diff-tree', '-r', '-t', '-z', '--no-renames', base, target]);
    const parts = out.toString('utf8').split('\0');
    const result: DiffEntry[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i] ?? '';
      const p = parts[i + 1] ?? '';
      const [srcMode = '', dstMode = '', srcSha = '', dstSha = '', status = ''] = meta
        .replace(/^:/, '')
        .split(' ');
      const mode = dstMode === '000000' ? srcMode : dstMode;
      result.push({
        path: p,
        changeType: status.startsWith('A') ? 'add' : status.startsWith('D') ? 'delete' : 'edit',
        type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob',
        objectId: dstSha,
        originalObjectId: srcSha,
      });
    }
    return result;
  }

  async sizeInBytes(): Promise<number> {
    const out = (await this.run(['count-objects', '-v'])).toString('utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }
}

function parseLsTree(out: Buffer, folder: string): TreeEntry[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type = 'blob', objectId = '', size = '-'] = line.slice(0, tab).split(/\s+/);
      const rel = line.slice(tab + 1);
      return {
        path: folder === '' ? rel : `${folder}/${rel}`,
        type: type as TreeEntryType,
        objectId,
        ...(size !== '-' ? { size: Number(size) } : {}),
      };
    });
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ZERO_OBJECT_ID } from '@aegis/connectors/devops';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { GitRepo } from './git';

const who = { name: 'Aegis', email: 'aegis@example.test', date: new Date('2026-01-05T10:00:00Z') };

describe('GitRepo.importCommits', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aegis-git-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("returns each annotated tag's own object id, in the order the tags were given", async () => {
    const git = await GitRepo.init(path.join(dir, 'repo.git'));
    const change = (content: string) => ({
      changeType: 'add' as const,
      path: 'a.txt',
      content: Buffer.from(content),
    });
    const { commits, tags } = await git.importCommits(
      undefined,
      [
        { message: 'one\n', author: who, committer: who, changes: [change('1')] },
        { message: 'two\n', author: who, committer: who, changes: [change('2')] },
      ],
      [
        { name: 'second', target: 1, message: 'on two\n', tagger: who },
        { name: 'first', target: 0, message: 'on one\n', tagger: who },
      ],
    );

    expect(tags).toEqual([
      await git.revParse('refs/tags/second'),
      await git.revParse('refs/tags/first'),
    ]);
    expect(new Set(tags).size).toBe(2);
    expect(await git.revParse(`${tags[0]}^{commit}`)).toBe(commits[1]);
    expect(await git.revParse(`${tags[1]}^{commit}`)).toBe(commits[0]);
  });

  it('answers an empty id for a ref that does not exist', async () => {
    const git = await GitRepo.init(path.join(dir, 'repo.git'));
    const { commits } = await git.importCommits(undefined, [
      {
        message: 'one\n',
        author: who,
        committer: who,
        changes: [{ changeType: 'add', path: 'a.txt', content: Buffer.from('1') }],
      },
    ]);
    await git.updateRef('refs/heads/main', commits[0]!, ZERO_OBJECT_ID);

    expect(await git.objectIdsOf(['refs/tags/none', 'refs/heads/main'])).toEqual(['', commits[0]]);
  });
});

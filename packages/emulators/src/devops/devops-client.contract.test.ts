// The DevOps connector's contract suite (@aegis/connectors/testing, ADR 076) against the DevOps
// emulator: an organization without the sample, a project and an empty repository made for it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describeDevOpsClientContract } from '@aegis/connectors/testing';
import { UnsecuredJWT } from 'jose';
import { afterAll, beforeAll } from 'vitest';

import { GitRepo } from './git';
import type { DevOpsEmulator } from './server';

import { startDevOpsEmulator } from './index';

const PAGE_SIZE = 2;
const TOKEN = new UnsecuredJWT({
  oid: '3c1f9a52-6b0e-4d7a-9e21-7f4b8c6d2a10',
  upn: 'sam.okafor@aegis-msp.example',
}).encode();
const REVIEWER = new UnsecuredJWT({
  oid: '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22',
  upn: 'priya.shah@aegis-msp.example',
}).encode();
const PROJECT = { id: '5b0d6c3e-2f41-4a8e-9c7d-1e3f5a7b9c20', name: 'Contract Project' };
const REPOSITORY = { id: '9e7c5a31-4d2b-4f6e-8a1c-3b5d7f9e1a42', name: 'contract-config' };

let dataDir: string;
let emulator: DevOpsEmulator;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'aegis-devops-contract-'));
  emulator = await startDevOpsEmulator({
    dataDir,
    port: 0,
    seed: 'never',
    pipelineDurationInMs: 50,
    defaultPageSize: PAGE_SIZE,
    verifyToken: (token) => Promise.resolve(token === TOKEN || token === REVIEWER),
  });
  const { state } = emulator;
  state.data.projects.push({
    ...PROJECT,
    description: 'Made by the contract suite',
    revision: 1,
    lastUpdateTime: new Date(0).toISOString(),
  });
  state.data.repositories.push({ ...REPOSITORY, projectId: PROJECT.id });
  await GitRepo.init(state.repoDir(REPOSITORY.id));
  state.save();
});

afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

describeDevOpsClientContract('the DevOps emulator', () => ({
  organizationUrl: emulator.url,
  token: TOKEN,
  reviewerToken: REVIEWER,
  rejectedToken: 'nope',
  repository: { project: PROJECT.name, repository: REPOSITORY.name },
  pageSize: PAGE_SIZE,
  runs: {
    hold: (pipelineId) => {
      let entered!: () => void;
      const started = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      emulator.runner.register(pipelineId, async () => {
        entered();
        await released;
      });
      return {
        entered: started,
        release: () => {
          release();
          emulator.runner.unregister(pipelineId);
        },
      };
    },
    settled: () => emulator.runner.waitForIdle(),
  },
  faults: {
    throttle: (pathPattern, retryAfterInSeconds, times) =>
      void emulator.faults.add({
        kind: 'throttle',
        pathPattern,
        retryAfterInSeconds,
        ...(times !== undefined ? { times } : {}),
      }),
    serverError: (pathPattern, message) =>
      void emulator.faults.add({ kind: 'error', statusCode: 500, message, pathPattern, times: 1 }),
    signInPage: (pathPattern) =>
      void emulator.faults.add({ kind: 'signInPage', pathPattern, times: 1 }),
    clear: () => emulator.faults.clear(),
  },
}));

import { DevOpsClient } from '@aegis/connectors/devops';
import {
  bareRun,
  captureRun,
  FIXED_PIPELINE_IDS,
  fullBaselineDeployRun,
  NotFoundError,
  secretValuesOf,
  tenantOnboardingLegacyRun,
} from '@aegis/domain';
import { SAMPLE_PROJECTS } from '@aegis/emulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPipelineRunsShared, PipelineRuns } from '../../src/services/pipeline-runs';
import { startSeededDevOpsForUser, type SeededDevOpsForUser } from '../devops-fixture';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;

describe('PipelineRuns against the DevOps emulator', () => {
  let devops: SeededDevOpsForUser;
  const logged: unknown[] = [];

  const runs = () =>
    new PipelineRuns(
      new DevOpsClient({
        organizationUrl: devops.emulator.url,
        getToken: async () => devops.token,
      }),
      undefined,
      { info: (object, message) => logged.push({ ...object, message }) },
    );

  beforeAll(async () => {
    devops = await startSeededDevOpsForUser({ pipelineDurationInMs: 200 });
  });
  afterAll(async () => {
    await devops.close();
  });

  it('finds the Aegis folder pipelines by folder and name', async () => {
    const id = await runs().resolve(PROJECT, fullBaselineDeployRun({ clientCode: 'ABC' }).pipeline);
    const pipelines = await new DevOpsClient({
      organizationUrl: devops.emulator.url,
      getToken: async () => devops.token,
    }).listPipelines(PROJECT);
    expect(pipelines.find((p) => p.id === id)?.name).toBe('Deploy Baseline Tenant Configuration');
    await expect(
      runs().resolve(PROJECT, { folder: 'Aegis', name: 'No Such Pipeline' }),
    ).rejects.toThrow(new NotFoundError('Selected pipeline not found.'));
  });

  it("starts and reads a fixed pipeline by the organisation's own id (AEGIS_PIPELINE_IDS)", async () => {
    // In a real organisation the capture pipeline has whatever id Azure DevOps gave it.
    const ownId = await runs().resolve(
      PROJECT,
      fullBaselineDeployRun({ clientCode: 'ABC' }).pipeline,
    );
    const client = new DevOpsClient({
      organizationUrl: devops.emulator.url,
      getToken: async () => devops.token,
    });
    const organisation = new PipelineRuns(client, createPipelineRunsShared({ capture: ownId }));
    const started = await organisation.start(PROJECT, captureRun({ clientCode: 'ABC' }));
    expect(started.pipelineId).toBe(ownId);
    expect((await organisation.getCatalogued(PROJECT, 'capture', started.id)).id).toBe(started.id);
    // a pipeline picked by its id on the projects screen is that pipeline, whatever its id
    const picked = await organisation.start(PROJECT, bareRun(FIXED_PIPELINE_IDS.capture));
    expect(picked.pipelineId).toBe(FIXED_PIPELINE_IDS.capture);
  });

  it('never shows secret variables: not in answers, run listings, the raw service or logs', async () => {
    const request = tenantOnboardingLegacyRun({
      clientCode: 'NEW',
      domain: 'new.example',
      subscriptionForLogin: 'Options IT',
      username: 'ga-user-7f3c@new.example',
      password: 'Pw-9d2e-Secret!',
    });
    const secrets = secretValuesOf(request.body);
    expect(secrets).toHaveLength(2);
    const started = await runs().start(PROJECT, request);
    const read = await runs().get(PROJECT, 75, started.id);
    const listed = await runs().list(PROJECT, 75);
    expect(listed.map((r) => r.id)).toContain(started.id);
    // the wire answers of the service itself, as the real service gives them
    const raw = await Promise.all(
      [`_apis/pipelines/75/runs/${started.id}`, '_apis/pipelines/75/runs'].map(async (path) => {
        const response = await fetch(
          `${devops.emulator.url}/${encodeURIComponent(PROJECT)}/${path}?api-version=7.1`,
          { headers: { authorization: `Bearer ${devops.token}` } },
        );
        expect(response.status).toBe(200);
        return response.text();
      }),
    );
    const everything = JSON.stringify([started, read, listed, logged]) + raw.join('');
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(JSON.stringify(logged)).toContain('new.example');
    expect(raw[0]).toContain('"isSecret":true');
  });
});

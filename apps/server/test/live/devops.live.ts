// Azure DevOps against the MSP's real organisation (`npm run test:live`, scripts/test-live.ts),
// read-only, as the Aegis app's service identity: the project and its pipelines are listed, the
// configuration repository is found, and main carries the reviewer policy four eyes needs (ADR
// 051), checked by the same service the portal's warning bar uses.
import { DevOpsClient } from '@aegis/connectors/devops';
import { ClientSecretCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';

import { BranchProtectionService } from '../../src/services/branch-protection';

/** Azure DevOps' resource id, the audience of an Entra token for it. */
const AZURE_DEVOPS_SCOPE = '499b84ac-1321-427f-aa17-267ca6975798/.default';
const env = (name: string): string => process.env[name]?.trim() ?? '';
const project = env('AEGIS_DEVOPS_PROJECT');
const repository = env('AEGIS_DEVOPS_CONFIG_REPO') || 'M365Config';
const credential = new ClientSecretCredential(
  env('AEGIS_LIVE_TENANT_ID'),
  env('AEGIS_LIVE_CLIENT_ID'),
  env('AEGIS_LIVE_CLIENT_SECRET'),
);
const devops = new DevOpsClient({
  organizationUrl: env('AEGIS_DEVOPS_ORG_URL'),
  getToken: async () => {
    const token = await credential.getToken(AZURE_DEVOPS_SCOPE);
    if (!token) throw new Error('No Azure DevOps token for the live organisation');
    return token.token;
  },
});

describe('Azure DevOps in the live organisation', () => {
  it('lists the project and its pipelines', async () => {
    const projects = await devops.listProjects();
    expect(projects.map((p) => p.name)).toContain(project);
    await expect(devops.listPipelines(project)).resolves.toBeInstanceOf(Array);
  });

  it("protects the configuration repository's main with the reviewer policy four eyes needs", async () => {
    const status = await new BranchProtectionService(devops, { project, repository }, true).check();
    expect({ protected: status.protected, gaps: status.gaps }).toEqual({
      protected: true,
      gaps: [],
    });
  });
});

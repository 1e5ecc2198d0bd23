import type { DevOpsApi } from '@aegis/connectors/devops';
import { branchProtectionSchema } from '@aegis/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';

import type { AegisConfig } from '../../config';
import { registering } from '../../lib/registering';
import { BranchProtectionService } from '../../services/branch-protection';

export interface BranchProtectionRoutesOptions {
  readonly config: AegisConfig;
}

const tags = ['branch-protection'];

/**
 * Main's branch policy (ADR 051): anyone signed in sees whether four eyes holds in Azure DevOps;
 * an Administrator sets the policy up. Both go through the Aegis service identity when there is
 * one (it holds 'Edit policies'), else through the caller's own DevOps token.
 */
export const branchProtectionRoutes: FastifyPluginCallbackZod<BranchProtectionRoutesOptions> =
  registering((app, { config }) => {
    const repo = {
      project: config.AEGIS_DEVOPS_PROJECT,
      repository: config.AEGIS_DEVOPS_CONFIG_REPO,
    };
    const serviceFor = (devops: DevOpsApi) =>
      new BranchProtectionService(devops, repo, app.aegisDevOps !== undefined);

    // Reading and setting up the policy differ only in who may and what the service does.
    const routes = [
      {
        method: 'GET',
        role: 'Reader',
        description:
          "Whether the configuration repository's main has the branch policy four eyes needs, and what it lacks.",
        run: (service: BranchProtectionService) => service.check(),
      },
      {
        method: 'POST',
        role: 'Administrator',
        description:
          "Sets up main's branch policy: one approval from someone other than the pull request's creator and its last pusher, votes reset on push; direct pushes are then refused.",
        run: (service: BranchProtectionService) => service.setUp(),
      },
    ] as const;
    for (const { method, role, description, run } of routes) {
      app.route({
        method,
        url: '/api/branch-protection',
        config: { role },
        schema: { tags, description, response: { 200: branchProtectionSchema } },
        handler: async (request) => run(serviceFor(app.aegisDevOps ?? request.devops)),
      });
    }
  });

import { probe, type Reachability, type ReachabilityOptions } from '../shared/reachability';

/**
 * Whether the Azure DevOps organisation answers. The server holds no DevOps credential of its own
 * (it calls DevOps on a technician's behalf, ADR 031), so the probe is anonymous: the
 * organisation's connection data answers 200, 203 (the sign-in page) or 401 when the organisation
 * exists; 404 means the organisation URL is wrong, 5xx and no answer mean DevOps is down.
 */
export async function checkDevOpsOrganization(
  organizationUrl: string,
  options: ReachabilityOptions,
): Promise<Reachability> {
  const url = `${organizationUrl.replace(/\/+$/, '')}/_apis/connectionData`;
  return probe(
    url,
    (response) => {
      if (response.status < 300 || response.status === 401) return { reachable: true };
      if (response.status === 404) {
        return { reachable: false, reason: `no organisation at ${organizationUrl} (404)` };
      }
      return { reachable: false, reason: `answered ${response.status}` };
    },
    options,
  );
}

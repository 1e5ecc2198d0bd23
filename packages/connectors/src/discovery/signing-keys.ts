import { probe, type Reachability, type ReachabilityOptions } from '../shared/reachability';

/**
 * Whether the identity provider publishes the keys the server verifies tokens with: the JWKS
 * document answers 200 with at least one key. Without them no technician can sign in.
 */
export async function checkSigningKeys(
  jwksUrl: string,
  options: ReachabilityOptions,
): Promise<Reachability> {
  return probe(
    jwksUrl,
    async (response) => {
      if (response.status !== 200) {
        return { reachable: false, reason: `the signing keys answered ${response.status}` };
      }
      const document = (await response.json().catch(() => undefined)) as
        { keys?: unknown } | undefined;
      return Array.isArray(document?.keys) && document.keys.length > 0
        ? { reachable: true }
        : { reachable: false, reason: 'the signing keys document holds no key' };
    },
    options,
  );
}

const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access']);
const GRAPH = 'https://graph.microsoft.com';

/** `https://graph.microsoft.com/User.Read` → its resource and permission; bare names are Graph's. */
function resourceOfScope(scope: string): { resource: string; permission: string } {
  const lastSlash = scope.lastIndexOf('/');
  if (lastSlash <= 0) return { resource: GRAPH, permission: scope };
  return { resource: scope.slice(0, lastSlash), permission: scope.slice(lastSlash + 1) };
}

/**
 * The resource and `scp` of a token asked for with `scope`; Entra issues a token for one
 * resource at a time (AADSTS28000 otherwise).
 */
export function audienceFor(scope: string): { audience: string; scp: string } | { error: string } {
  const requested = scope
    .split(/\s+/)
    .filter((s) => s && !OIDC_SCOPES.has(s))
    .map(resourceOfScope);
  const first = requested[0];
  if (!first) return { audience: GRAPH, scp: 'User.Read' };
  if (requested.some((r) => r.resource !== first.resource))
    return {
      error:
        'AADSTS28000: Provided value for the input parameter scope is not valid because it contains more than one resource.',
    };
  return {
    audience: first.resource,
    scp: requested
      .map((r) => (r.permission === '.default' ? 'user_impersonation' : r.permission))
      .join(' '),
  };
}

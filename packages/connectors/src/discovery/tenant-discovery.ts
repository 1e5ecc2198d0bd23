// Tenant discovery (spec 2 §7, reference graph-arm-identity.md §3.2): the tenant id of a domain, read
// from the issuer of its anonymous OpenID configuration, trying the domain as typed, the domain
// plus `.onmicrosoft.com` and the `.com` swap, in that order.
import { HttpPipeline, isServiceError, type RetryOptions } from '../shared';

export const LOGIN_BASE_URL = 'https://login.microsoftonline.com';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OpenIdConfiguration {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  jwks_uri?: string;
  tenant_region_scope?: string | null;
  [key: string]: unknown;
}

export interface TenantDiscoveryOptions {
  /** `https://login.microsoftonline.com` or the local identity provider */
  loginUrl?: string;
  retry?: RetryOptions;
  fetch?: typeof fetch;
}

export interface DiscoveredTenant {
  tenantId: string;
  /** the candidate that answered */
  domain: string;
  configuration: OpenIdConfiguration;
}

/** Normalises what a technician typed: no scheme, path, user part or trailing dot; lower case. */
export function normaliseDomain(input: string): string {
  let domain = input.trim().toLowerCase();
  domain = domain.replace(/^[a-z]+:\/\//, '');
  domain = domain.replace(/^[^@]*@/, '');
  domain = domain.split(/[/?#]/)[0] ?? '';
  return domain.replace(/\.+$/, '');
}

/**
 * The names to try for a domain, in order (spec 2 §7): the domain itself, the domain plus
 * `.onmicrosoft.com`, and the `.com` swap (`contoso.com` → `contoso.onmicrosoft.com`).
 * The same rule as the domain's `discoveryDomains` (onboarding).
 */
export function discoveryCandidates(input: string): string[] {
  const domain = normaliseDomain(input);
  if (!domain) return [];
  const candidates = [domain];
  if (!domain.endsWith('.onmicrosoft.com')) {
    candidates.push(`${domain}.onmicrosoft.com`);
    if (domain.endsWith('.com'))
      candidates.push(`${domain.slice(0, -'.com'.length)}.onmicrosoft.com`);
  }
  return [...new Set(candidates)];
}

/** The tenant id in an issuer such as `https://login.microsoftonline.com/{tenantId}/v2.0`. */
export function tenantIdFromIssuer(issuer: string): string | undefined {
  try {
    const segment = new URL(issuer).pathname.split('/').filter(Boolean)[0];
    return segment && GUID.test(segment) ? segment.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

export class TenantDiscovery {
  readonly loginUrl: string;
  private readonly http: HttpPipeline;

  constructor(options: TenantDiscoveryOptions = {}) {
    this.loginUrl = (options.loginUrl ?? LOGIN_BASE_URL).replace(/\/+$/, '');
    this.http = new HttpPipeline({
      service: 'identity',
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      parseError: (_status, text) => {
        try {
          const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
          return {
            ...(typeof body.error === 'string' ? { code: body.error } : {}),
            ...(typeof body.error_description === 'string'
              ? { message: body.error_description }
              : {}),
          };
        } catch {
          return {};
        }
      },
      requestIdHeaders: ['x-ms-request-id'],
    });
  }

  /**
   * The OpenID configuration of one tenant (id or domain), or undefined when Entra does not know
   * it (400 invalid_tenant / 404). Other failures throw a ServiceError.
   */
  async openIdConfiguration(
    domainOrTenantId: string,
    abortSignal?: AbortSignal,
  ): Promise<OpenIdConfiguration | undefined> {
    try {
      const response = await this.http.send<OpenIdConfiguration>({
        method: 'GET',
        url: `${this.loginUrl}/${encodeURIComponent(domainOrTenantId)}/v2.0/.well-known/openid-configuration`,
        responseType: 'json',
        ...(abortSignal ? { abortSignal } : {}),
      });
      return response.body;
    } catch (error) {
      if (
        isServiceError(error) &&
        (error.statusCode === 404 || (error.statusCode === 400 && error.code === 'invalid_tenant'))
      ) {
        return undefined;
      }
      throw error;
    }
  }

  /** Tries the candidates of `domain` in order; the first that names a tenant wins. */
  async discover(domain: string, abortSignal?: AbortSignal): Promise<DiscoveredTenant | undefined> {
    for (const candidate of discoveryCandidates(domain)) {
      const configuration = await this.openIdConfiguration(candidate, abortSignal);
      const tenantId = configuration ? tenantIdFromIssuer(configuration.issuer) : undefined;
      if (configuration && tenantId) return { tenantId, domain: candidate, configuration };
    }
    return undefined;
  }

  async resolveTenantId(domain: string, abortSignal?: AbortSignal): Promise<string | undefined> {
    return (await this.discover(domain, abortSignal))?.tenantId;
  }
}

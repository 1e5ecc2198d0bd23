import type { FastifyReply } from 'fastify';
import type { generateKeyPair } from 'jose';

import { errorPage } from '../pages';
import {
  findTenant,
  type DirectoryAccount,
  type DirectoryTenant,
  type RegisteredApplication,
  type TenantDirectory,
} from '../tenant-directory';

/** Entra's multi-tenant authority names. */
export const MULTI_TENANT = new Set(['common', 'organizations']);

export interface TokenClaims {
  readonly tenantId: string;
  readonly account: DirectoryAccount;
  readonly audience: string;
  readonly scp: string;
  readonly issuer: string;
  readonly appId: string;
  /** an application's own token (client credentials): no user, `idtyp` app */
  readonly appOnly?: boolean;
}

export interface TenantAuthorityOptions {
  readonly baseUrl: () => string;
  readonly directory: TenantDirectory;
  readonly applications: readonly RegisteredApplication[];
  /** Origins whose redirect URIs are registered (the portal). */
  readonly redirectOrigins: readonly string[];
  readonly publicKey: Awaited<ReturnType<typeof generateKeyPair>>['publicKey'];
  readonly sign: (claims: TokenClaims) => Promise<string>;
  readonly lifetimeInSeconds: number;
  /**
   * The MSP's own tenant (the staff's): its client-credentials tokens are issued by the staff
   * issuer, as the Aegis server's service identity for Azure DevOps needs them (ADR 051).
   */
  readonly homeTenantId?: string;
}

export interface Grant {
  readonly tenantId: string;
  readonly account: DirectoryAccount;
  readonly clientId: string;
}

interface PendingCode extends Grant {
  readonly redirectUri: string;
  readonly codeChallenge?: string;
  readonly scope: string;
  readonly expiresAt: number;
}

/** A Global Administrator of a tenant the authority path may sign in to. */
interface TenantAccount {
  readonly account: DirectoryAccount;
  readonly tenant: DirectoryTenant;
}

/** What every resource of the tenant authority shares: options, issued codes and grants. */
export interface AuthorityContext {
  readonly options: TenantAuthorityOptions;
  readonly codes: Map<string, PendingCode>;
  readonly refreshTokens: Map<string, Grant>;
  readonly issuerOf: (tenantId: string) => string;
  readonly application: (clientId: string) => RegisteredApplication | undefined;
  /** The tenants an authority path may sign in to: one, or all for `common`. */
  readonly tenantsOf: (authority: string) => DirectoryTenant[] | undefined;
  readonly accountsOf: (tenants: readonly DirectoryTenant[]) => TenantAccount[];
  /**
   * The checks shared by the sign-in and consent pages (GET): a registered application, a
   * registered redirect URI and a known tenant, in Entra's order. Sends the error page and
   * answers undefined when one fails.
   */
  readonly popupRequest: (
    reply: FastifyReply,
    request: { authority: string; clientId: string; redirectUri: string },
  ) => { application: RegisteredApplication; tenants: DirectoryTenant[] } | undefined;
  /**
   * The checks shared by the sign-in and consent forms (POST): the application and the redirect
   * URI again. Sends the error page and answers undefined when one fails.
   */
  readonly formRedirect: (
    reply: FastifyReply,
    body: { clientId: string; redirectUri: string },
  ) => URL | undefined;
  /** The account the form signed in with; sends the error page and answers undefined if none. */
  readonly signedInAccount: (
    reply: FastifyReply,
    authority: string,
    upn: string,
  ) => TenantAccount | undefined;
}

export function oauthError(reply: FastifyReply, error: string, description: string, status = 400) {
  return reply.code(status).send({ error, error_description: description });
}

function sendErrorPage(reply: FastifyReply, message: string): undefined {
  void reply.code(400).type('text/html').send(errorPage(message));
  return undefined;
}

export function authorityContext(options: TenantAuthorityOptions): AuthorityContext {
  const { directory } = options;
  const application = (clientId: string) =>
    options.applications.find((a) => a.clientId === clientId);
  const redirectAllowed = (uri: string) => {
    try {
      return options.redirectOrigins.includes(new URL(uri).origin);
    } catch {
      return false;
    }
  };
  const tenantsOf = (authority: string): DirectoryTenant[] | undefined => {
    if (MULTI_TENANT.has(authority.toLowerCase())) return [...directory.tenants()];
    const tenant = findTenant(directory, authority);
    return tenant ? [tenant] : undefined;
  };
  const accountsOf = (tenants: readonly DirectoryTenant[]) =>
    tenants.flatMap((tenant) =>
      tenant.globalAdministrators.map((account) => ({ account, tenant })),
    );
  return {
    options,
    codes: new Map(),
    refreshTokens: new Map(),
    issuerOf: (tenantId) => `${options.baseUrl()}/${tenantId}/v2.0`,
    application,
    tenantsOf,
    accountsOf,
    popupRequest(reply, { authority, clientId, redirectUri }) {
      const found = application(clientId);
      if (!found)
        return sendErrorPage(
          reply,
          `AADSTS700016: Application with identifier '${clientId}' was not found in the directory.`,
        );
      if (!redirectUri || !redirectAllowed(redirectUri))
        return sendErrorPage(
          reply,
          'AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.',
        );
      const tenants = tenantsOf(authority);
      if (!tenants) return sendErrorPage(reply, `AADSTS90002: Tenant '${authority}' not found.`);
      return { application: found, tenants };
    },
    formRedirect(reply, { clientId, redirectUri }) {
      if (!application(clientId) || !redirectAllowed(redirectUri))
        return sendErrorPage(reply, 'AADSTS900144: Invalid request.');
      return new URL(redirectUri);
    },
    signedInAccount(reply, authority, upn) {
      const match = accountsOf(tenantsOf(authority) ?? []).find(
        ({ account }) => account.upn.toLowerCase() === upn.toLowerCase(),
      );
      return match ?? sendErrorPage(reply, `AADSTS50034: The user account ${upn} does not exist.`);
    },
  };
}

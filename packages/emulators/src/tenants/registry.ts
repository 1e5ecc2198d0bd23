// The simulated client tenants (issue 10 §5): one per sample client under /Clients plus tenants not
// yet onboarded, for the onboarding journeys. Static facts only (ids, domains, the Global
// Administrator, subscriptions); the live, mutable directory and configuration of each tenant is
// `TenantWorld` (./world.ts). Shared with the identity provider, which serves per-tenant
// authorities and signs these Global Administrators in.
import { SAMPLE_CLIENTS } from '../seed/sample-config';
import { deterministicGuid } from '../seed/tenant-context';

/** The subscription name Aegis looks for by default (spec 2 §9). */
export const DEFAULT_SUBSCRIPTION_NAME = 'Options IT';

export interface SimulatedSubscription {
  readonly subscriptionId: string;
  readonly displayName: string;
  readonly state: 'Enabled' | 'Warned' | 'PastDue' | 'Disabled';
}

/** A password-less account of the local identity provider, in the client's directory. */
export interface SimulatedUserAccount {
  /** object id in the client's directory */
  readonly oid: string;
  readonly upn: string;
  readonly displayName: string;
  readonly givenName: string;
  readonly surname: string;
  readonly jobTitle: string;
}

export interface SimulatedTenant {
  /** the client code, e.g. 'ABC' (also the folder under /Clients once onboarded) */
  readonly clientCode: string;
  /** the organization's display name */
  readonly displayName: string;
  /** the directory (tenant) id */
  readonly tenantId: string;
  /** `{name}.onmicrosoft.com` */
  readonly initialDomain: string;
  /** the verified custom domain, the default domain */
  readonly customDomain: string;
  /** every verified domain, the custom (default) one first */
  readonly domains: readonly string[];
  readonly countryLetterCode: string;
  /** signs in through the second popup for onboarding (spec 2 §6) */
  readonly globalAdministrator: SimulatedUserAccount;
  readonly subscriptions: readonly SimulatedSubscription[];
  /** true when the configuration repository has a folder /Clients/{clientCode} */
  readonly onboarded: boolean;
}

interface TenantSeed {
  code: string;
  name: string;
  domainPrefix: string;
  /** the verified custom domain when it is not `{domainPrefix}.com` */
  customDomain?: string;
  country: string;
  admin: [given: string, surname: string];
  subscriptions: readonly string[];
}

/** Onboarded clients: the sample clients of the configuration repository (seed/sample-config). */
const ONBOARDED: Readonly<Record<string, Pick<TenantSeed, 'country' | 'admin' | 'subscriptions'>>> =
  {
    ABC: {
      country: 'GB',
      admin: ['Hannah', 'Clarke'],
      subscriptions: [DEFAULT_SUBSCRIPTION_NAME, 'ABC Accounting - Development'],
    },
    CON: {
      country: 'GB',
      admin: ['Oliver', 'Bennett'],
      subscriptions: [DEFAULT_SUBSCRIPTION_NAME],
    },
    FAB: {
      country: 'US',
      admin: ['Grace', 'Miller'],
      subscriptions: [DEFAULT_SUBSCRIPTION_NAME, 'Fabrikam Production'],
    },
    NWT: { country: 'NL', admin: ['Daan', 'de Vries'], subscriptions: [DEFAULT_SUBSCRIPTION_NAME] },
    // No Azure subscription (its git copy has no Azure policies or maintenance configurations).
    WWI: { country: 'IE', admin: ['Aoife', 'Byrne'], subscriptions: [] },
  };

/** Tenants with no folder under /Clients yet: the onboarding journeys start here. */
const NOT_ONBOARDED: readonly TenantSeed[] = [
  {
    code: 'TSP',
    name: 'Tailspin Toys',
    domainPrefix: 'tailspintoys',
    country: 'GB',
    admin: ['Lucy', 'Harper'],
    subscriptions: [DEFAULT_SUBSCRIPTION_NAME, 'Tailspin Toys - Pay-As-You-Go'],
  },
  {
    code: 'LIT',
    name: 'Litware Inc',
    domainPrefix: 'litware',
    country: 'US',
    admin: ['Marcus', 'Reed'],
    // no 'Options IT': onboarding needs a custom subscription name
    subscriptions: ['Litware Production'],
  },
  {
    code: 'ADW',
    name: 'Adventure Works Cycles',
    domainPrefix: 'adventureworks',
    // not `adventureworks.com`: discovery finds it through the `.com` swap only
    customDomain: 'adventure-works.de',
    country: 'DE',
    admin: ['Lena', 'Fischer'],
    subscriptions: [DEFAULT_SUBSCRIPTION_NAME],
  },
];

function buildTenant(seed: TenantSeed, onboarded: boolean): SimulatedTenant {
  // Same tenant id as the client's exported configuration (seed/tenant-context.ts).
  const tenantId = deterministicGuid(`${seed.code}:tenant`);
  const initialDomain = `${seed.domainPrefix}.onmicrosoft.com`;
  const customDomain = seed.customDomain ?? `${seed.domainPrefix}.com`;
  const [givenName, surname] = seed.admin;
  const local = `${givenName}.${surname}`.toLowerCase().replace(/[^a-z.]/g, '');
  return {
    clientCode: seed.code,
    displayName: seed.name,
    tenantId,
    initialDomain,
    customDomain,
    domains: [customDomain, initialDomain],
    countryLetterCode: seed.country,
    globalAdministrator: {
      oid: deterministicGuid(`${seed.code}:user:global-admin`),
      upn: `${local}@${customDomain}`,
      displayName: `${givenName} ${surname}`,
      givenName,
      surname,
      jobTitle: 'IT Manager',
    },
    subscriptions: seed.subscriptions.map((displayName, index) => ({
      // The first subscription holds the Azure resources of the client's exported configuration.
      subscriptionId: deterministicGuid(
        index === 0 ? `${seed.code}:subscription` : `${seed.code}:subscription:${displayName}`,
      ),
      displayName,
      state: 'Enabled',
    })),
    onboarded,
  };
}

export const SIMULATED_TENANTS: readonly SimulatedTenant[] = [
  ...SAMPLE_CLIENTS.map((client) => {
    const extra = ONBOARDED[client.code];
    if (!extra) throw new Error(`No simulated tenant facts for sample client ${client.code}`);
    return buildTenant(
      { code: client.code, name: client.name, domainPrefix: client.domainPrefix, ...extra },
      true,
    );
  }),
  ...NOT_ONBOARDED.map((seed) => buildTenant(seed, false)),
];

/**
 * The tenant named by a tenant id, a verified domain (custom or `.onmicrosoft.com`) or a client
 * code, case-insensitively; undefined when there is none (Entra: AADSTS90002).
 */
export function findSimulatedTenant(
  idOrDomain: string,
  tenants: readonly SimulatedTenant[] = SIMULATED_TENANTS,
): SimulatedTenant | undefined {
  const key = idOrDomain.trim().toLowerCase();
  return tenants.find(
    (t) =>
      t.tenantId === key ||
      t.clientCode.toLowerCase() === key ||
      t.domains.some((d) => d.toLowerCase() === key),
  );
}

/** The Global Administrator account with this UPN, and its tenant. */
export function findGlobalAdministrator(
  upn: string,
  tenants: readonly SimulatedTenant[] = SIMULATED_TENANTS,
): { tenant: SimulatedTenant; account: SimulatedUserAccount } | undefined {
  const key = upn.trim().toLowerCase();
  const tenant = tenants.find((t) => t.globalAdministrator.upn.toLowerCase() === key);
  return tenant ? { tenant, account: tenant.globalAdministrator } : undefined;
}

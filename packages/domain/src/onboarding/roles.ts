/** Spec 2 §6: the product's enterprise app, assigned roles in the client tenant. */
export const ENTERPRISE_APP_NAME = 'Aegis - Deploy - Monitor - Fix';

export type RoleKind = 'subscription' | 'directory';

export interface OnboardingRole {
  /** How the role is named in status lines. */
  readonly name: string;
  readonly kind: RoleKind;
  /** Azure role definition GUID (subscription) or directory role template id. */
  readonly id: string;
  /** Spec 2 §4: completion needs every required role. */
  readonly required: boolean;
}

/** Role ids are the same in every tenant (Microsoft's built-in role tables). */
export const ONBOARDING_ROLES: readonly OnboardingRole[] = [
  {
    name: 'Reader',
    kind: 'subscription',
    id: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
    required: true,
  },
  {
    name: 'Resource Policy Contributor',
    kind: 'subscription',
    id: '36243c78-bf99-498c-9df9-86d9f8d28608',
    required: true,
  },
  {
    name: 'Contributor',
    kind: 'subscription',
    id: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
    required: true,
  },
  {
    name: 'Teams Administrator',
    kind: 'directory',
    id: '69091246-20e8-4a56-aa4d-066075b2a7a8',
    required: true,
  },
  {
    name: 'Global Administrator',
    kind: 'directory',
    id: '62e90394-69f5-4237-9190-012177145e10',
    required: true,
  },
  {
    name: 'Exchange Administrator',
    kind: 'directory',
    id: '29232cdf-9323-42fd-ade2-1d097af3e4de',
    required: true,
  },
  {
    name: 'Authentication Policy Administrator',
    kind: 'directory',
    id: '0526716b-113d-4c15-b2c8-68e3c22b9f80',
    required: false,
  },
  {
    name: 'Privileged Authentication Administrator',
    kind: 'directory',
    id: '7be44c8a-adaf-4e2a-84d6-ab2649e08a13',
    required: false,
  },
];

export const READER_ROLE = ONBOARDING_ROLES[0] as OnboardingRole;

/** One role's outcome: empty until tried, then success or failure with the message. */
export interface RoleStatus {
  readonly role: string;
  readonly ok: boolean;
  readonly message: string;
}

/** Spec 2 §4: status lines start with ✅ or ❌; a failure reads 'Error assigning {role} role: {message}'. */
export function roleStatusLine(status: RoleStatus): string {
  return status.ok
    ? `✅ ${status.role} role assigned successfully`
    : `❌ Error assigning ${status.role} role: ${status.message}`;
}

/** Spec 2 §4: true only when the six required roles all succeeded. */
export function allRolesAssigned(statuses: readonly RoleStatus[]): boolean {
  return ONBOARDING_ROLES.filter((r) => r.required).every((role) =>
    statuses.some((s) => s.role === role.name && s.ok),
  );
}

/** Spec 2 §8: the subscription was not found; lists the names that exist. */
export function subscriptionNotFoundMessage(name: string, available: readonly string[]): string {
  return `Subscription '${name}' not found. Available subscriptions: ${
    available.length > 0 ? available.join(', ') : 'none'
  }`;
}

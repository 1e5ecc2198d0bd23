/**
 * Aegis roles (issue 18), as Entra app roles in the token's `roles` claim. Each role includes the
 * ones before it: Reader < Operator < Approver < Administrator.
 */
export const AEGIS_ROLES = ['Reader', 'Operator', 'Approver', 'Administrator'] as const;
export type AegisRole = (typeof AEGIS_ROLES)[number];

/** What each role may do, as the README and the sign-in dialog describe it. */
export const ROLE_DESCRIPTIONS: Record<AegisRole, string> = {
  Reader: 'Every screen and report, PDF export; no changes.',
  Operator:
    'Reader, plus running pipelines, triggering captures and manual backups, editing app tables, YAML and schedules.',
  Approver:
    'Operator, plus approving a capture review, accepting deviations, confirming matches and restoring a backup.',
  Administrator: 'Everything, including onboarding, deploying and off-boarding tenants.',
};

export function isAegisRole(value: unknown): value is AegisRole {
  return typeof value === 'string' && (AEGIS_ROLES as readonly string[]).includes(value);
}

/** The Aegis roles among a token's `roles` claim values (other apps' roles are ignored). */
export function aegisRolesOf(claim: unknown): AegisRole[] {
  const values = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  return AEGIS_ROLES.filter((role) => values.includes(role));
}

/** The most powerful of the given roles, or undefined for an account without any Aegis role. */
export function highestRole(roles: readonly AegisRole[]): AegisRole | undefined {
  let best: AegisRole | undefined;
  for (const role of roles) {
    if (!best || AEGIS_ROLES.indexOf(role) > AEGIS_ROLES.indexOf(best)) best = role;
  }
  return best;
}

/** Whether an account holding `roles` may do what needs `required`. */
export function hasRole(roles: readonly AegisRole[], required: AegisRole): boolean {
  const rank = AEGIS_ROLES.indexOf(required);
  return roles.some((role) => AEGIS_ROLES.indexOf(role) >= rank);
}

/** The 403 text naming the role needed. */
export function roleRequiredMessage(required: AegisRole): string {
  return `This action needs the Aegis ${required} role. Ask an Aegis Administrator to assign it to your account.`;
}

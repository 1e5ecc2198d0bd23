import type { AegisRole } from '@aegis/domain';

/**
 * The sample staff of the embedded default; one has no display name and one no photo, as real
 * directories do. Each holds a different Aegis role; Jordan Lee holds none (issue 18).
 */
export interface StaffAccount {
  readonly oid: string;
  readonly upn: string;
  readonly displayName?: string;
  /** Initials drawn on the generated profile photo; absent means the account has no photo. */
  readonly photoInitials?: string;
  readonly photoColour?: string;
  /** Aegis app roles in the token's `roles` claim (issue 18); none for an account without access. */
  readonly roles: readonly AegisRole[];
}

export const STAFF_ACCOUNTS: readonly StaffAccount[] = [
  {
    oid: '5b1f6a0e-2f4c-4d8e-9a51-7c3e2b9d4f10',
    upn: 'alex.morgan@aegis-msp.example',
    displayName: 'Alex Morgan',
    photoInitials: 'AM',
    photoColour: '#0f6cbd',
    roles: ['Administrator'],
  },
  {
    oid: '8d2e4c71-91b3-4f0a-b6c2-3e5f7a9d1b22',
    upn: 'priya.shah@aegis-msp.example',
    displayName: 'Priya Shah',
    photoInitials: 'PS',
    photoColour: '#8a3707',
    roles: ['Approver'],
  },
  {
    oid: 'c4a9e2f3-6b7d-48e1-a0f5-2d9c8b7e6a33',
    upn: 'sam.taylor@aegis-msp.example',
    displayName: 'Sam Taylor',
    roles: ['Operator'],
  },
  {
    oid: 'e7f1b3d5-0c2a-4e69-8b4d-1a6f9c3e5d44',
    upn: 'night.shift@aegis-msp.example',
    roles: ['Reader'],
  },
  {
    oid: '3f6c1a2b-7d84-4e0f-9b15-6a2c8e4d7f55',
    upn: 'jordan.lee@aegis-msp.example',
    displayName: 'Jordan Lee',
    roles: [],
  },
];

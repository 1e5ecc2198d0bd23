import { roleRequiredMessage, type AegisRole } from '@aegis/domain';
import { Tooltip } from '@fluentui/react-components';
import { cloneElement, type ReactElement } from 'react';

import { useCan } from '../lib/roles';

export interface RoleGateState {
  /** Whether the signed-in account holds the role (or a more powerful one). */
  readonly allowed: boolean;
  /** The text naming the role needed, the same the server's 403 answers; undefined when allowed. */
  readonly reason: string | undefined;
}

/** For actions that compose their own disabled state and tooltip (checkboxes, menu items, …). */
export function useRoleGate(role: AegisRole): RoleGateState {
  const allowed = useCan(role);
  return { allowed, reason: allowed ? undefined : roleRequiredMessage(role) };
}

/**
 * Renders a Fluent button (or anything taking `disabledFocusable`) that `needs` a role: as it is
 * when the signed-in account holds the role, otherwise disabled but still focusable, with a
 * tooltip (and accessible description) naming the role needed, so people learn who to ask
 * (issue 18 §3). Actions are never hidden.
 */
export function RoleGate({
  needs,
  children,
}: {
  /** The least Aegis role the action needs. */
  needs: AegisRole;
  children: ReactElement<{ disabledFocusable?: boolean }>;
}) {
  const { allowed, reason } = useRoleGate(needs);
  if (allowed || !reason) return children;
  return (
    <Tooltip content={reason} relationship="description" withArrow>
      {cloneElement(children, { disabledFocusable: true })}
    </Tooltip>
  );
}

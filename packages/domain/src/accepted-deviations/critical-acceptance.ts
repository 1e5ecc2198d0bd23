// Accepting a critical deviation needs a second person (ADR 051): the first Approver asks, an
// Approver other than the one who asked approves or rejects, as for a capture.
import { NotAllowedError, NotFoundError } from '../errors';
import type { Severity } from '../severity';

import {
  acceptDeviations,
  ACCEPTED_DEVIATIONS_VERSION,
  type AcceptAction,
  type AcceptedDeviationsConfig,
  type PendingAcceptance,
} from './accepted-deviations';

/** Whether accepting these properties needs a second Approver: any of them deviates critically. */
export function needsSecondApprover(
  properties: readonly string[],
  severityOf: (property: string) => Severity | undefined,
): boolean {
  return properties.some((p) => severityOf(p) === 'critical');
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Records a request to accept (replacing an earlier request for the same policy path). */
export function requestAcceptance(
  config: AcceptedDeviationsConfig,
  action: AcceptAction & { requestedBy: string; clientPath?: string },
  now = new Date(),
): AcceptedDeviationsConfig {
  const request: PendingAcceptance = {
    path: action.path,
    policyName: action.policyName,
    category: action.category,
    properties: [...new Set(action.properties)],
    requestedBy: action.requestedBy,
    requestedAt: now.toISOString(),
    ...(action.reason !== undefined ? { reason: action.reason } : {}),
    ...(action.expiresAt !== undefined ? { expiresAt: action.expiresAt } : {}),
    ...(action.acceptedValues !== undefined ? { acceptedValues: action.acceptedValues } : {}),
    ...(action.clientPath !== undefined ? { clientPath: action.clientPath } : {}),
  };
  return {
    ...config,
    version: ACCEPTED_DEVIATIONS_VERSION,
    timestamp: now.toISOString(),
    pendingAcceptances: [
      ...(config.pendingAcceptances ?? []).filter((r) => r.path !== action.path),
      request,
    ],
  };
}

function pendingOf(config: AcceptedDeviationsConfig, path: string): PendingAcceptance {
  const request = (config.pendingAcceptances ?? []).find((r) => r.path === path);
  if (!request) throw new NotFoundError(`No acceptance of ${path} is waiting for approval.`);
  return request;
}

function decidedBySomeoneElse(request: PendingAcceptance, approver: string, verb: string): void {
  if (!approver.trim() || same(request.requestedBy, approver)) {
    throw new NotAllowedError(
      `You asked for this acceptance, so another Approver must ${verb} it (four-eyes rule).`,
    );
  }
}

/**
 * The second Approver approves: the request becomes an accepted deviation, accepted by who asked
 * and approved by `approver`, who must be someone else.
 */
export function approveAcceptance(
  config: AcceptedDeviationsConfig,
  path: string,
  approver: string,
  now = new Date(),
): AcceptedDeviationsConfig {
  const request = pendingOf(config, path);
  decidedBySomeoneElse(request, approver, 'approve');
  const accepted = acceptDeviations(
    config,
    {
      path: request.path,
      policyName: request.policyName,
      category: request.category,
      properties: request.properties,
      ...(request.reason !== undefined ? { reason: request.reason } : {}),
      ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
      ...(request.acceptedValues !== undefined ? { acceptedValues: request.acceptedValues } : {}),
      acceptedBy: request.requestedBy,
      approvedBy: approver.trim(),
    },
    now,
  );
  return {
    ...accepted,
    pendingAcceptances: (config.pendingAcceptances ?? []).filter((r) => r.path !== path),
  };
}

/** A second Approver rejects the request: it is removed, nothing is accepted. */
export function rejectAcceptance(
  config: AcceptedDeviationsConfig,
  path: string,
  rejecter: string,
  now = new Date(),
): AcceptedDeviationsConfig {
  const request = pendingOf(config, path);
  decidedBySomeoneElse(request, rejecter, 'reject');
  return {
    ...config,
    timestamp: now.toISOString(),
    pendingAcceptances: (config.pendingAcceptances ?? []).filter((r) => r.path !== path),
  };
}

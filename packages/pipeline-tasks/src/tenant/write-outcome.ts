// A write's outcome from the service's answer: 202 is a change held for Multi Admin Approval.
import type { TenantObject, WriteOutcome } from './gateway';

export function writeOutcomeOf(status: number, body: TenantObject | undefined): WriteOutcome {
  if (status === 202) {
    const message =
      typeof body?.['message'] === 'string'
        ? String(body['message'])
        : 'the change waits for a second administrator to approve it (Multi Admin Approval)';
    return { status: 'pendingApproval', message };
  }
  return { status: 'done', ...(body && typeof body === 'object' ? { object: body } : {}) };
}

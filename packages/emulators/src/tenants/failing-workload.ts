// The 'failingWorkload' scenario switch: reads of one workload (or of every workload of one
// category, e.g. all of Exchange) fail with a chosen status, the way the service answers it, so a
// capture of the tenant shows what it does when one workload cannot be read (ADR 050). Writes are
// left alone: the switch is about what a capture can trust.
import { TENANT_WORKLOADS, workloadKey, type TenantWorkload } from '@aegis/domain';
import type { FastifyRequest } from 'fastify';

import { EmulatorError } from './wire';

export interface FailingWorkload {
  /** `Category/Kind` (one workload) or `Category` (all of its workloads) */
  workload: string;
  /** 403: not permitted; 401, 404, 429, 5xx: failed */
  status: number;
}

/** Whether a switch value names at least one workload of the table. */
export function namesWorkload(workload: string): boolean {
  return TENANT_WORKLOADS.some((w) => matches(workload, w));
}

function matches(selector: string, workload: TenantWorkload): boolean {
  const wanted = selector.toLowerCase();
  return (
    wanted === workloadKey(workload).toLowerCase() || wanted === workload.category.toLowerCase()
  );
}

/** The workload a request reads, if it is a read of one. */
function workloadRead(request: FastifyRequest): TenantWorkload | undefined {
  const path = (request.url.split('?')[0] ?? '').toLowerCase();
  if (request.method === 'GET') {
    const graphPath = /^\/(?:v1\.0|beta)(\/.*)$/.exec(path)?.[1];
    if (graphPath) {
      // the longest workload path that is the request's path or a parent of it
      return TENANT_WORKLOADS.filter(
        (w) =>
          w.transport === 'graph' &&
          (graphPath === w.path.toLowerCase() || graphPath.startsWith(`${w.path.toLowerCase()}/`)),
      ).sort(
        (a, b) =>
          (b.transport === 'graph' ? b.path.length : 0) -
          (a.transport === 'graph' ? a.path.length : 0),
      )[0];
    }
    const teamsType = /^\/skype\.policy\/configurations\/([^/]+)/.exec(path)?.[1];
    if (teamsType) {
      return TENANT_WORKLOADS.find(
        (w) => w.transport === 'adminCommand' && w.configurationType?.toLowerCase() === teamsType,
      );
    }
    return TENANT_WORKLOADS.find(
      (w) => w.transport === 'arm' && path.includes(`/providers/${w.resourceType.toLowerCase()}`),
    );
  }
  if (request.method === 'POST' && path.endsWith('/invokecommand')) {
    const name = (request.body as { CmdletInput?: { CmdletName?: unknown } } | undefined)
      ?.CmdletInput?.CmdletName;
    if (typeof name !== 'string' || !/^get-/i.test(name)) return undefined;
    return TENANT_WORKLOADS.find(
      (w) => w.transport === 'adminCommand' && `get-${w.noun.toLowerCase()}` === name.toLowerCase(),
    );
  }
  return undefined;
}

const FAILURES: Record<number, { code: string; message: string }> = {
  401: { code: 'InvalidAuthenticationToken', message: 'Access token validation failure.' },
  403: {
    code: 'Authorization_RequestDenied',
    message: 'Insufficient privileges to complete the operation.',
  },
  404: { code: 'ResourceNotFound', message: 'The resource could not be found.' },
  429: { code: 'TooManyRequests', message: 'Too many requests. Please try again later.' },
};

/** Throws the switch's error for a read of the failing workload; a pre-handler of the emulator. */
export function failWorkloadRead(
  request: FastifyRequest,
  failing: FailingWorkload | null | undefined,
): void {
  if (!failing) return;
  const workload = workloadRead(request);
  if (!workload || !matches(failing.workload, workload)) return;
  const known = FAILURES[failing.status];
  throw new EmulatorError(
    failing.status,
    known?.code ?? 'InternalServerError',
    known?.message ??
      `An internal server error occurred while reading ${workloadKey(workload)} (emulator scenario 'failingWorkload').`,
  );
}

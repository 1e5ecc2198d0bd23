import type {
  BaselineFileResponse,
  BaselineItemsResponse,
  BaselineRunResponse,
  DeployPreviewResponse,
} from '@aegis/contracts';

import { api } from '../../../lib/api-client';

/** Spec 2 §7: deploy with components, or the full baseline when `components` is undefined. */
export function startDeploy(
  pipelineId: number,
  components: readonly string[] | undefined,
): Promise<BaselineRunResponse> {
  return api<BaselineRunResponse>('/api/baseline/deploy/runs', {
    method: 'POST',
    body: components ? { pipelineId, components } : { pipelineId },
  });
}

/** Spec 2 §7: off-board with the components array. */
export function startOffboard(
  pipelineId: number,
  components: readonly string[],
): Promise<BaselineRunResponse> {
  return api<BaselineRunResponse>('/api/baseline/offboard/runs', {
    method: 'POST',
    body: { pipelineId, components },
  });
}

export function previewDeploy(
  pipelineId: number,
  components: readonly string[],
): Promise<DeployPreviewResponse> {
  return api<DeployPreviewResponse>('/api/baseline/deploy/preview', {
    method: 'POST',
    body: { pipelineId, components },
  });
}

export function listBaselineFiles(
  path: string,
  signal?: AbortSignal,
): Promise<BaselineItemsResponse> {
  return api<BaselineItemsResponse>(`/api/baseline/files?path=${encodeURIComponent(path)}`, {
    signal,
  });
}

export function readBaselineFile(
  path: string,
  signal?: AbortSignal,
): Promise<BaselineFileResponse> {
  return api<BaselineFileResponse>(`/api/baseline/file?path=${encodeURIComponent(path)}`, {
    signal,
  });
}

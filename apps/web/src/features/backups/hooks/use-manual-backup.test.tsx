import type { BackupRun, ManualBackup } from '@aegis/contracts';
import { act } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { mockServer } from '../../../testing/mocks/server';
import { renderHookWithProviders } from '../../../testing/render-app';

import { useManualBackup } from './use-manual-backup';

const run = (state: BackupRun['state'], result: string | null = null): BackupRun => ({
  runId: 12,
  state,
  result,
  project: 'Aegis',
  pipelineId: 212,
});

const started = (state: ManualBackup['state']): ManualBackup => ({
  runId: 12,
  state,
  project: 'Aegis',
  pipelineId: 212,
});

/** An API error body, as the server answers a failure (HTTP `status`, `message`). */
const failure = (status: number, message: string) =>
  HttpResponse.json({ error: 'ServiceError', statusCode: status, message }, { status });

/**
 * The backup endpoints: each trigger answers the next of `starts`, each read of the run the next
 * of `reads`; returns the paths asked, in order.
 */
function serve({
  starts = [],
  reads = [],
}: {
  starts?: (ManualBackup | Response)[];
  reads?: (BackupRun | Response)[];
}) {
  const asked: string[] = [];
  const answer = (queue: (ManualBackup | BackupRun | Response)[], path: string) => {
    asked.push(path);
    const next = queue.shift();
    if (next === undefined) return failure(500, `nothing more for ${path}`);
    return next instanceof Response ? next : HttpResponse.json(next);
  };
  mockServer.use(
    http.post('*/api/backups/:client/runs', ({ request }) =>
      answer(starts, `POST ${new URL(request.url).pathname}`),
    ),
    http.get('*/api/backups/:client/runs/:runId', ({ request }) =>
      answer(reads, `GET ${new URL(request.url).pathname}`),
    ),
  );
  return asked;
}

/** Renders the hook and starts a manual backup of ABC. */
async function startBackup() {
  const reload = vi.fn(() => Promise.resolve());
  const hook = renderHookWithProviders(() => useManualBackup(reload));
  await act(() => hook.result.current.start('ABC'));
  return { reload, result: hook.result };
}

describe('useManualBackup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('reloads the backups 5 s after the trigger and every 5 s until the run completes', async () => {
    const asked = serve({
      starts: [started('notStarted')],
      reads: [run('inProgress'), run('completed', 'succeeded')],
    });
    const reload = vi.fn(() => Promise.resolve());
    const { result } = renderHookWithProviders(() => useManualBackup(reload));
    expect(result.current.isBackingUp).toBe(false);
    await act(() => result.current.start('ABC'));
    expect(asked).toEqual(['POST /api/backups/ABC/runs']);
    expect(result.current.isBackingUp).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(asked).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(asked.at(-1)).toBe('GET /api/backups/ABC/runs/12');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(2);
    expect(result.current.isBackingUp).toBe(false);
    // the finished run's log stays reachable
    expect(result.current.logOf).toEqual({ project: 'Aegis', pipelineId: 212, id: 12 });
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(asked).toHaveLength(3);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('logs a run that did not succeed, and a failed trigger, and stops backing up', async () => {
    const asked = serve({
      starts: [started('inProgress'), failure(502, 'TF400898: pipeline unavailable')],
      reads: [run('completed', 'failed')],
    });
    const { reload, result } = await startBackup();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Backup run #12 ended: failed');

    await act(() => result.current.start('ABC'));
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith(
      'Triggering the backup failed',
      expect.objectContaining({ status: 502, message: 'TF400898: pipeline unavailable' }),
    );
    // the log offered is never an earlier run's
    expect(result.current.logOf).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(asked.filter((path) => path.startsWith('GET'))).toHaveLength(1);
  });

  it('reloads once and stops when the run cannot be read', async () => {
    serve({ starts: [started('notStarted')], reads: [failure(503, 'HTTP 503')] });
    const { reload, result } = await startBackup();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Reading the backup run failed', 'HTTP 503');
  });

  it('stops following the run when another tenant is chosen', async () => {
    const asked = serve({ starts: [started('notStarted')] });
    const { reload, result } = await startBackup();
    expect(result.current.logOf).toEqual({ project: 'Aegis', pipelineId: 212, id: 12 });
    act(() => result.current.reset());
    expect(result.current.isBackingUp).toBe(false);
    expect(result.current.logOf).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(asked).toEqual(['POST /api/backups/ABC/runs']);
    expect(reload).not.toHaveBeenCalled();
  });
});

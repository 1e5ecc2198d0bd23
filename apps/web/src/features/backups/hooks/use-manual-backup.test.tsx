import type { BackupRun } from '@aegis/contracts';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useManualBackup } from './use-manual-backup';

const api = vi.hoisted(() => ({ start: vi.fn(), read: vi.fn() }));
vi.mock('../api/backups', () => ({
  useStartManualBackup: () => ({ mutateAsync: api.start }),
  getBackupRun: api.read,
}));

const run = (state: BackupRun['state'], result: string | null = null): BackupRun => ({
  runId: 12,
  state,
  result,
  project: 'Aegis',
  pipelineId: 212,
});

/** Renders the hook and starts a manual backup of ABC. */
async function startBackup() {
  const reload = vi.fn(() => Promise.resolve());
  const hook = renderHook(() => useManualBackup(reload));
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
    api.start.mockReset();
    api.read.mockReset();
  });

  it('reloads the backups 5 s after the trigger and every 5 s until the run completes', async () => {
    api.start.mockResolvedValue({
      runId: 12,
      state: 'notStarted',
      project: 'Aegis',
      pipelineId: 212,
    });
    api.read
      .mockResolvedValueOnce(run('inProgress'))
      .mockResolvedValueOnce(run('completed', 'succeeded'));
    const reload = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => useManualBackup(reload));
    expect(result.current.isBackingUp).toBe(false);
    await act(() => result.current.start('ABC'));
    expect(api.start).toHaveBeenCalledWith('ABC');
    expect(result.current.isBackingUp).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(api.read).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.read).toHaveBeenCalledWith('ABC', 12, expect.any(AbortSignal));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(2);
    expect(result.current.isBackingUp).toBe(false);
    // the finished run's log stays reachable
    expect(result.current.logOf).toEqual({ project: 'Aegis', pipelineId: 212, id: 12 });
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(api.read).toHaveBeenCalledTimes(2);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('logs a run that did not succeed, and a failed trigger, and stops backing up', async () => {
    api.start.mockResolvedValueOnce({
      runId: 12,
      state: 'inProgress',
      project: 'Aegis',
      pipelineId: 212,
    });
    api.read.mockResolvedValueOnce(run('completed', 'failed'));
    const { reload, result } = await startBackup();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Backup run #12 ended: failed');

    api.start.mockRejectedValueOnce(new Error('HTTP 502'));
    await act(() => result.current.start('ABC'));
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Triggering the backup failed', expect.any(Error));
    // the log offered is never an earlier run's
    expect(result.current.logOf).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.read).toHaveBeenCalledTimes(1);
  });

  it('reloads once and stops when the run cannot be read', async () => {
    api.start.mockResolvedValue({
      runId: 12,
      state: 'notStarted',
      project: 'Aegis',
      pipelineId: 212,
    });
    api.read.mockRejectedValueOnce(new Error('HTTP 503'));
    const { reload, result } = await startBackup();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(result.current.isBackingUp).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Reading the backup run failed', 'HTTP 503');
  });

  it('stops following the run when another tenant is chosen', async () => {
    api.start.mockResolvedValue({
      runId: 12,
      state: 'notStarted',
      project: 'Aegis',
      pipelineId: 212,
    });
    const { reload, result } = await startBackup();
    expect(result.current.logOf).toEqual({ project: 'Aegis', pipelineId: 212, id: 12 });
    act(() => result.current.reset());
    expect(result.current.isBackingUp).toBe(false);
    expect(result.current.logOf).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(api.read).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});

import type { PipelineRun } from '@aegis/contracts';
import { PIPELINE_CARD_RUN_POLLING } from '@aegis/domain';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type * as ApiClient from '../lib/api-client';
import type { FollowedRun } from '../lib/pipeline-run';
import { renderWithProviders } from '../testing/render-app';

import { PipelineRunStatus, ProjectRunStatus } from './pipeline-run-status';

// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const api = vi.hoisted(() => vi.fn());
vi.mock('../lib/api-client', async (original) => ({
  ...(await original<typeof ApiClient>()),
  api,
}));

const followed = (run: PipelineRun | undefined, error?: string): FollowedRun => ({
  run,
  polls: run ? 1 : 0,
  error,
});

describe('PipelineRunStatus', () => {
  it.each([
    ['notStarted', null, 'Pipeline status: notStarted -'],
    ['inProgress', null, 'Pipeline status: inProgress -'],
    ['canceling', null, 'Pipeline status: canceling -'],
  ] as const)('shows a %s run as running, politely', (state, result, text) => {
    renderWithProviders(<PipelineRunStatus followed={followed({ id: 3, state, result })} />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(text);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a succeeded run as a success status', () => {
    renderWithProviders(
      <PipelineRunStatus followed={followed({ id: 3, state: 'completed', result: 'succeeded' })} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Pipeline status: completed - succeeded');
  });

  it.each([
    ['failed', 'Pipeline status: completed - failed'],
    ['canceled', 'Pipeline status: completed - canceled'],
  ] as const)('alerts with the text of a %s run', (result, text) => {
    renderWithProviders(
      <PipelineRunStatus followed={followed({ id: 3, state: 'completed', result })} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("alerts with a failed status read's message in the spec's words, or the screen's", () => {
    const { unmount } = renderWithProviders(
      <PipelineRunStatus
        followed={followed({ id: 3, state: 'inProgress', result: null }, 'HTTP 503')}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Error checking pipeline status: HTTP 503');
    unmount();
    renderWithProviders(
      <PipelineRunStatus
        followed={followed(undefined, 'Service Unavailable')}
        describeError={(message) => `Run #3: status unavailable - ${message}`}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Run #3: status unavailable - Service Unavailable',
    );
  });

  it("uses the screen's text for the run", () => {
    renderWithProviders(
      <PipelineRunStatus
        followed={followed({ id: 9, state: 'inProgress', result: null })}
        describe={(run) => `Run #${run.id}: ${run.state}`}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Run #9: inProgress');
  });

  it('shows nothing before there is a run', () => {
    const { container } = renderWithProviders(<PipelineRunStatus followed={followed(undefined)} />);
    expect(container.firstElementChild).toBeEmptyDOMElement();
  });
});

describe('ProjectRunStatus', () => {
  afterEach(() => {
    vi.useRealTimers();
    api.mockReset();
  });

  it("reads the run where the start said it lives, under the screen's rule, and tells when it finished", async () => {
    vi.useFakeTimers();
    api
      .mockResolvedValueOnce({ id: 41, state: 'inProgress', result: null })
      .mockResolvedValueOnce({ id: 41, state: 'completed', result: 'failed' });
    const onFinished = vi.fn();
    renderWithProviders(
      <ProjectRunStatus
        started={{ project: 'Client Onboarding', pipelineId: 75, id: 41, state: 'notStarted' }}
        rule={PIPELINE_CARD_RUN_POLLING}
        onFinished={onFinished}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Pipeline status: notStarted -');
    await act(() => vi.advanceTimersByTimeAsync(1_999));
    expect(api).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api).toHaveBeenCalledTimes(1);
    expect(api.mock.calls[0]?.[0]).toBe('/api/projects/Client%20Onboarding/pipelines/75/runs/41');
    expect(screen.getByRole('status')).toHaveTextContent('Pipeline status: inProgress -');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Pipeline status: completed - failed');
    expect(onFinished).toHaveBeenCalledTimes(1);
    expect(onFinished).toHaveBeenCalledWith('failed');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(api).toHaveBeenCalledTimes(2);
  });
});

import type { PipelineRun } from '@aegis/contracts';
import { PIPELINE_CARD_RUN_POLLING } from '@aegis/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { FollowedRun } from '../lib/pipeline-run';
import { findDialog } from '../testing/find-dialog';
import { mockServer } from '../testing/mocks/server';
import { renderWithProviders } from '../testing/render-app';

import { PipelineRunStatus, ProjectRunStatus } from './pipeline-run-status';

const RUN_PATH = '*/api/projects/:project/pipelines/:pipelineId/runs/:runId';

/**
 * Answers the reads of `path` with `answers` in turn (a promise: answered when it resolves);
 * returns the paths asked, in order.
 */
function serve(path: string, answers: (JsonBodyType | Promise<JsonBodyType> | Response)[]) {
  const asked: string[] = [];
  mockServer.use(
    http.get(path, async ({ request }) => {
      asked.push(new URL(request.url).pathname);
      const next = answers.shift();
      if (next === undefined) return HttpResponse.json({ message: 'no more' }, { status: 500 });
      if (next instanceof Response) return next;
      return HttpResponse.json(next instanceof Promise ? await next : next);
    }),
  );
  return asked;
}

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
    // the app's notifier keeps its two empty live regions in the tree; the status adds nothing
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(container).toHaveTextContent(/^$/);
  });
});

describe('ProjectRunStatus', () => {
  afterEach(() => vi.useRealTimers());

  it("reads the run where the start said it lives, under the screen's rule, and tells when it finished", async () => {
    vi.useFakeTimers();
    const asked = serve(RUN_PATH, [
      { id: 41, state: 'inProgress', result: null },
      { id: 41, state: 'completed', result: 'failed' },
    ]);
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
    expect(asked).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(asked).toEqual(['/api/projects/Client%20Onboarding/pipelines/75/runs/41']);
    expect(screen.getByRole('status')).toHaveTextContent('Pipeline status: inProgress -');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Pipeline status: completed - failed');
    expect(onFinished).toHaveBeenCalledTimes(1);
    expect(onFinished).toHaveBeenCalledWith('failed');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(asked).toHaveLength(2);
  });
});

describe('View log', () => {
  const where = { project: 'Client Onboarding', pipelineId: 75, id: 41 };
  const completed = followed({ id: 41, state: 'completed', result: 'failed' });
  const LOG_PATH = `${RUN_PATH}/log`;

  it('is offered only when the screen knows where the run lives', () => {
    const { unmount } = renderWithProviders(<PipelineRunStatus followed={completed} />);
    expect(screen.queryByRole('button', { name: 'View log' })).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<PipelineRunStatus followed={completed} logOf={where} />);
    expect(screen.getByRole('button', { name: 'View log' })).toBeEnabled();
  });

  it("opens the run's log, monospace and keyboard-scrollable, reads it again on Refresh, and closes with Escape", async () => {
    let answer!: (log: JsonBodyType) => void;
    const asked = serve(LOG_PATH, [
      new Promise<JsonBodyType>((resolve) => (answer = resolve)),
      { lines: [{ time: null, text: 'Finishing: Export' }] },
    ]);
    renderWithProviders(<PipelineRunStatus followed={completed} logOf={where} />);
    const open = screen.getByRole('button', { name: 'View log' });
    await userEvent.click(open);
    const dialog = await findDialog('Log of run #41');
    expect(within(dialog).getByText('Loading log...')).toBeInTheDocument();
    await waitFor(() =>
      expect(asked).toEqual(['/api/projects/Client%20Onboarding/pipelines/75/runs/41/log']),
    );
    // async act: the answered request settles before the assertions
    await act(() => {
      answer({
        lines: [
          { time: '2026-11-24T04:10:02.1234567Z', text: 'Starting: Export-TenantConfiguration' },
          { time: '2026-11-24T04:10:02Z', text: '##[section]Capture of ABC' },
          { time: null, text: '##[error]Access denied' },
          { time: null, text: '##vso[task.logissue type=warning]2 approvals pending' },
        ],
      });
      return Promise.resolve();
    });
    const log = await within(dialog).findByLabelText('Log of run #41');
    expect(log.tagName).toBe('PRE');
    expect(log).toHaveAttribute('tabindex', '0');
    expect(log).toHaveTextContent('2026-11-24 04:10:02 Starting: Export-TenantConfiguration');
    // logging commands read as what they mean, errors and warnings named in words
    expect(log).toHaveTextContent('2026-11-24 04:10:02 Capture of ABC');
    expect(log).toHaveTextContent('Error: Access denied');
    expect(log).toHaveTextContent('Warning: 2 approvals pending');
    expect(log).not.toHaveTextContent('##');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(log).toHaveTextContent('Finishing: Export'));
    expect(asked).toHaveLength(2);

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Log of run #41')).not.toBeInTheDocument());
  });

  it('says when the run has written no log, and when the log cannot be read', async () => {
    serve(LOG_PATH, [
      { lines: [] },
      HttpResponse.json(
        { error: 'ServiceError', statusCode: 404, message: 'Run 41 not found' },
        { status: 404 },
      ),
    ]);
    const { unmount } = renderWithProviders(
      <PipelineRunStatus followed={completed} logOf={where} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'View log' }));
    let dialog = await findDialog('Log of run #41');
    expect(await within(dialog).findByText('This run has written no log yet.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    unmount();

    renderWithProviders(<PipelineRunStatus followed={completed} logOf={where} />);
    await userEvent.click(screen.getByRole('button', { name: 'View log' }));
    dialog = await findDialog('Log of run #41');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not load the log: Run 41 not found',
    );
  });

  it('names the Reader role to an account without it, and reads nothing', async () => {
    const asked = serve(LOG_PATH, [{ lines: [] }]);
    renderWithProviders(<PipelineRunStatus followed={completed} logOf={where} />, { roles: [] });
    const button = screen.getByRole('button', { name: 'View log' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      'This action needs the Aegis Reader role. Ask an Aegis Administrator to assign it to your account.',
    );
    await userEvent.click(button);
    expect(screen.queryByText('Log of run #41')).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});

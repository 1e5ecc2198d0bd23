import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { findNotice } from '../testing/find-notice';
import { mockServer } from '../testing/mocks/server';
import { renderApp } from '../testing/render-app';

const BUSY =
  'You already have 4 large requests running (fleet, comparisons, compliance reports, capture lists). Try again when one of them has finished.';

describe('a heavy request refused with 429', () => {
  it("is told through the app's notifier with the server's message", async () => {
    mockServer.use(
      http.get('*/api/fleet', () =>
        HttpResponse.json(
          { error: 'TooManyRequestsError', statusCode: 429, message: BUSY },
          { status: 429, headers: { 'retry-after': '5' } },
        ),
      ),
      http.get('*/api/fleet/trends', () => HttpResponse.json({ trends: [] })),
      http.get('*/api/drift', () => HttpResponse.json({ clients: [] })),
    );
    renderApp('/fleet');
    const notice = await findNotice(BUSY);
    expect(notice).toBeInTheDocument();
    expect(screen.getByText('Failed to load the fleet.')).toBeInTheDocument();
  });

  it('is not told for other failures (the screen says those itself)', async () => {
    mockServer.use(
      http.get('*/api/fleet', () =>
        HttpResponse.json(
          { error: 'ServiceError', statusCode: 502, message: 'Azure DevOps did not answer' },
          { status: 502 },
        ),
      ),
      http.get('*/api/fleet/trends', () => HttpResponse.json({ trends: [] })),
      http.get('*/api/drift', () => HttpResponse.json({ clients: [] })),
    );
    renderApp('/fleet');
    expect(await screen.findByText('Failed to load the fleet.')).toBeInTheDocument();
    expect(document.querySelectorAll('[role="listitem"][aria-labelledby]')).toHaveLength(0);
  });
});

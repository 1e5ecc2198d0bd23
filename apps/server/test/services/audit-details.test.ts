import { describe, expect, it } from 'vitest';

import { detailsOfAnswer } from '../../src/plugins/audit';

describe("an audited answer's details", () => {
  it('keeps where a started run lives, so the trail can open its log (ADR 042)', () => {
    // onboarding, baseline deploy and off-board, capture: the answer says it
    expect(
      detailsOfAnswer(
        JSON.stringify({
          id: 12,
          pipelineId: 75,
          project: 'Client Onboarding',
          state: 'notStarted',
        }),
        { clientCode: 'ABC' },
      ),
    ).toEqual({ runId: 12, pipelineId: 75, project: 'Client Onboarding' });
    expect(
      detailsOfAnswer(
        JSON.stringify({
          runId: 1000,
          pipelineId: 216,
          project: 'Aegis',
          branch: 'client-ABC-capture-1000',
        }),
        { client: 'ABC' },
      ),
    ).toEqual({
      runId: 1000,
      pipelineId: 216,
      project: 'Aegis',
      branch: 'client-ABC-capture-1000',
    });
    // the projects API answers the run only: the address says where
    expect(
      detailsOfAnswer(JSON.stringify({ id: 41, state: 'notStarted', result: null }), {
        projectId: 'Client App Deployments',
        pipelineId: '101',
      }),
    ).toEqual({ runId: 41, pipelineId: 101, project: 'Client App Deployments' });
  });

  it('invents no run where the answer has none', () => {
    expect(
      detailsOfAnswer(JSON.stringify({ id: 7, name: 'x' }), { client: 'ABC' }),
    ).toBeUndefined();
    expect(detailsOfAnswer(JSON.stringify({ pullRequestId: 7 }), {})).toEqual({ pullRequestId: 7 });
    expect(detailsOfAnswer('not json', {})).toBeUndefined();
  });
});

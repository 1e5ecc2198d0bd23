import { describe, expect, it } from 'vitest';

import { findRunLogFindings, pendingApprovalSummary, rollbackPointLine } from './run-log-findings';

const lines = (...texts: string[]) => texts.map((text) => ({ text }));

describe('findRunLogFindings', () => {
  it("finds the rollback point and the pending approvals the tasks' own lines name", () => {
    const summary = pendingApprovalSummary(3, 1051);
    expect(summary).toBe(
      '3 change(s) wait for Multi Admin Approval in the tenant; they apply once a second administrator approves the request for run 1051.',
    );
    expect(
      findRunLogFindings(
        lines(
          '##[section]Deploy to FAB',
          rollbackPointLine('backup/FAB/20261124_075501'),
          "##vso[task.logissue type=warning]Pending approval: 'macOS.json': approval required",
          `##vso[task.logissue type=warning]${summary}`,
          `##vso[task.complete result=SucceededWithIssues;]${summary}`,
        ),
      ),
    ).toEqual({ rollbackTag: 'backup/FAB/20261124_075501', pendingApproval: summary });
  });

  it('reads the warning as the emulator and the agent store it (##[warning])', () => {
    const summary = pendingApprovalSummary(1, 7);
    expect(findRunLogFindings(lines(`##[warning]${summary}`))).toEqual({
      pendingApproval: summary,
    });
  });

  it("finds the capture's and the backup's partial warning, in either form", () => {
    const capture =
      'Partial capture: 2 workloads were not captured; their files are left as they are on main';
    expect(findRunLogFindings(lines(`##[warning]${capture}`))).toEqual({ partial: capture });
    const backup = 'Partial backup: some workloads were not read';
    expect(
      findRunLogFindings(lines(`##vso[task.logissue type=warning]${backup}`, 'Partial backup: x')),
    ).toEqual({ partial: backup });
  });

  it('finds nothing in a run that took no backup and left nothing waiting', () => {
    expect(
      findRunLogFindings(
        lines(
          '3 removed, 0 kept (still in use), 0 reverted, 0 not present, 0 waiting for approval',
        ),
      ),
    ).toEqual({});
    // a plain line quoting the phrase is not a warning
    expect(findRunLogFindings(lines(pendingApprovalSummary(2, 9)))).toEqual({});
  });

  it('names the first error a failed run logged: the reason, not only the result', () => {
    expect(
      findRunLogFindings(
        lines(
          '##[section]Capture of WGB',
          "##[error]No client tenant is known for 'WGB'",
          '##vso[task.logissue type=error]Capture stopped',
        ),
      ),
    ).toEqual({ failure: "No client tenant is known for 'WGB'" });
  });
});

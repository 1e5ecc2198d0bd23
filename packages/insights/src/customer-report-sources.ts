// Where a customer report's figures come from (issue 29, ADR 067, 089): the very services behind
// Baseline Compliance, the standard comparison, the Fleet's trend, the capture reviews and the
// audit trail, so the report says what the screens say, whether the server or a task makes it.
import type { ConfigRepository } from '@aegis/connectors/repository';

import type { AuditTrail } from './audit-trail';
import { CaptureBranches } from './capture-branches';
import { ComparisonService, createComparisonCaches, NoSettingsError } from './comparison-service';
import { ComplianceService, createComplianceCaches, type Logger } from './compliance-service';
import { ConfigRepositoryComplianceStore } from './compliance-store';
import type { CustomerReportSources } from './customer-report-service';
import { createFleetCaches, FleetService } from './fleet-service';

/** The caches of the services behind a report, shared by every reader of one process. */
export function createCustomerReportCaches() {
  return {
    compliance: createComplianceCaches(),
    comparison: createComparisonCaches(),
    fleet: createFleetCaches(),
  };
}

export type CustomerReportCaches = ReturnType<typeof createCustomerReportCaches>;

export interface CustomerReportSourcesOptions {
  /** the configuration repository, as whoever reads: a technician, the app, a pipeline's agent */
  readonly repository: ConfigRepository;
  readonly caches: CustomerReportCaches;
  /** when the capture run that made a branch finished (the server asks the capture pipeline) */
  readonly runDateOf: (branch: string) => Promise<string | undefined>;
  /** the audit trail; without stored events, the period's changes are the merges alone */
  readonly audit: AuditTrail | undefined;
  readonly log: Logger;
  readonly now: () => Date;
}

/** The report's sources over one reader's repository. */
export function createCustomerReportSources({
  repository,
  caches,
  runDateOf,
  audit,
  log,
  now,
}: CustomerReportSourcesOptions): CustomerReportSources {
  const captures = new CaptureBranches(repository, runDateOf);
  return {
    repository,
    compliance: (client) =>
      new ComplianceService(
        new ConfigRepositoryComplianceStore(repository),
        caches.compliance,
        log,
        now,
      ).report(client),
    standard: async (client) => {
      try {
        const result = await new ComparisonService(repository, caches.comparison).runComparison(
          client,
          'standard',
          () => undefined,
        );
        return result.baselineType === 'standard' ? result : undefined;
      } catch (error) {
        if (error instanceof NoSettingsError) return undefined;
        throw error;
      }
    },
    figuresAt: (client, moments) =>
      new FleetService(repository, captures, caches.fleet, log).figuresAt(client, moments),
    reviewsWaiting: async (client) =>
      (await captures.overviews([client])).get(client)?.pendingReviews ?? 0,
    auditEvents: async (client, period) => {
      if (!audit?.stored) return [];
      const last = new Date(Date.parse(period.end) - 1).toISOString().slice(0, 10);
      const page = await audit.query({
        client,
        from: period.start.slice(0, 10),
        to: last,
        pageSize: 200,
      });
      return page.events;
    },
  };
}

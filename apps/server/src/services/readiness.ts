// Readiness (ADR 053): may a load balancer send technicians to this instance? It is ready when
// Azure DevOps, Table storage and the identity provider's signing keys all answer. The answer is
// kept for a few seconds so that probes every second from several load balancers cost one check.
import { isServiceError, type Reachability } from '@aegis/connectors';
import { checkDevOpsOrganization } from '@aegis/connectors/devops';
import { checkSigningKeys } from '@aegis/connectors/discovery';
import type { AppTables } from '@aegis/connectors/tables';
import { AUDIT_TABLE } from '@aegis/domain';

export const DEPENDENCIES = ['devops', 'tables', 'identity'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

export type DependencyCheck = (timeoutInMs: number) => Promise<Reachability>;

export interface ReadinessReport {
  ready: boolean;
  checkedAt: string;
  dependencies: Record<Dependency, { ready: boolean; reason?: string }>;
}

export interface ReadinessOptions {
  /** how long one answer is reused */
  cacheInMs: number;
  /** how long each check may take */
  timeoutInMs: number;
  now?: () => number;
}

export class ReadinessProbe {
  private cached: { report: Promise<ReadinessReport>; expiresAt: number } | undefined;
  private readonly now: () => number;

  constructor(
    private readonly checks: Record<Dependency, DependencyCheck>,
    private readonly options: ReadinessOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The last report while it is fresh; callers arriving during a check share it. */
  async report(): Promise<ReadinessReport> {
    const now = this.now();
    if (!this.cached || this.cached.expiresAt <= now) {
      this.cached = { report: this.check(), expiresAt: Number.POSITIVE_INFINITY };
      const entry = this.cached;
      void entry.report.finally(() => {
        entry.expiresAt = this.now() + this.options.cacheInMs;
      });
    }
    return this.cached.report;
  }

  private async check(): Promise<ReadinessReport> {
    const results = await Promise.all(
      DEPENDENCIES.map(async (name) => {
        const result = await this.checks[name](this.options.timeoutInMs).catch(
          (error: unknown): Reachability => ({
            reachable: false,
            reason: error instanceof Error ? error.message : String(error),
          }),
        );
        return [name, result.reachable ? { ready: true } : { ready: false, reason: result.reason }];
      }),
    );
    const dependencies = Object.fromEntries(results) as ReadinessReport['dependencies'];
    return {
      ready: DEPENDENCIES.every((name) => dependencies[name].ready),
      checkedAt: new Date(this.now()).toISOString(),
      dependencies,
    };
  }
}

/**
 * Table storage answers with the server's own credential: one row of the audit table is read
 * (a missing table still proves the account and the credential).
 */
export function tablesCheck(tables: AppTables | undefined): DependencyCheck {
  return async (timeoutInMs) => {
    if (!tables) {
      return {
        reachable: false,
        reason:
          'not configured: set AEGIS_TABLES_CONNECTION_STRING or AEGIS_TABLES_ACCOUNT_URL (app tables and the audit trail need it)',
      };
    }
    try {
      await tables.queryEntities(AUDIT_TABLE, {
        maxPageSize: 1,
        abortSignal: AbortSignal.timeout(timeoutInMs),
      });
      return { reachable: true };
    } catch (error) {
      if (isServiceError(error) && error.statusCode === 404) return { reachable: true };
      return { reachable: false, reason: error instanceof Error ? error.message : String(error) };
    }
  };
}

export function devOpsCheck(organizationUrl: string): DependencyCheck {
  return (timeoutInMs) => checkDevOpsOrganization(organizationUrl, { timeoutInMs });
}

export function identityCheck(jwksUrl: string): DependencyCheck {
  return (timeoutInMs) => checkSigningKeys(jwksUrl, { timeoutInMs });
}

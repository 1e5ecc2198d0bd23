import { randomUUID } from 'node:crypto';

import type { SharedRows } from '@aegis/connectors/tables';
import { ConflictError, type AppTableEntity } from '@aegis/domain';

export interface StartedBackup {
  runId: number;
}

export interface ManualBackupGuardOptions {
  /** The instant by which claims are made and expire; tests fix it. */
  readonly now?: () => Date;
  /**
   * How long a claim holds while its run is being started: an instance that stops in between
   * (crash, deploy) leaves a claim that lapses, and the next request for the client goes ahead.
   */
  readonly claimInMs?: number;
  /** How often, and how many times, a request that finds a claim looks again for its run. */
  readonly pollInMs?: number;
  readonly polls?: number;
}

/** The partition of the shared rows that holds each client's latest manual backup. */
const PARTITION = 'manual-backup';

type Claim = { outcome: 'claimed'; claimId: string; previousRunId?: number } | { outcome: 'busy' };

function runIdOf(row: AppTableEntity | undefined): number | undefined {
  return typeof row?.RunId === 'number' ? row.RunId : undefined;
}

/** The claim a row holds, while it has not lapsed. */
function liveClaimOf(row: AppTableEntity | undefined, now: Date): string | undefined {
  if (typeof row?.ClaimId !== 'string' || typeof row.ClaimedUntil !== 'string') return undefined;
  return new Date(row.ClaimedUntil) > now ? row.ClaimId : undefined;
}

/**
 * One manual backup per client at a time (issue 9 §3, ADR 012), across every server instance
 * (ADR 060): two backups started in the same second would make one tag. Each client's latest
 * manual backup run is a shared row in Table storage; a request claims the row with a conditional
 * write before it starts a run and records the run in place of the claim, so of two requests on
 * any instances one starts the run and the other answers 409 naming it.
 */
export class ManualBackupGuard {
  private readonly now: () => Date;
  private readonly claimInMs: number;
  private readonly pollInMs: number;
  private readonly polls: number;

  constructor(
    private readonly rows: SharedRows,
    {
      now = () => new Date(),
      claimInMs = 120_000,
      pollInMs = 25,
      polls = 200,
    }: ManualBackupGuardOptions = {},
  ) {
    this.now = now;
    this.claimInMs = claimInMs;
    this.pollInMs = pollInMs;
    this.polls = polls;
  }

  /**
   * Starts the client's manual backup through `startRun` unless one is running. When the row
   * cannot be updated afterwards (Table storage failing), the outcome of the run stands and
   * `onUnsettled` is told: the claim then holds until it lapses.
   */
  async start<T extends StartedBackup>(
    client: string,
    isRunActive: (runId: number) => Promise<boolean>,
    startRun: () => Promise<T>,
    onUnsettled: (error: unknown) => void = () => undefined,
  ): Promise<T> {
    const keys = { partitionKey: PARTITION, rowKey: client };
    const claim = await this.claim(client, isRunActive);
    const settle = (runId: number | undefined) =>
      this.rows
        .update(keys, (row) =>
          // a claim that lapsed and was taken over belongs to the one who took it
          row?.ClaimId === claim.claimId
            ? { write: recordOf(runId), result: undefined }
            : { result: undefined },
        )
        .catch(onUnsettled);
    let started: T;
    try {
      started = await startRun();
    } catch (error) {
      // no run was started: the claim goes, the previous run stays the client's latest
      await settle(claim.previousRunId);
      throw error;
    }
    // the run exists whatever happens to the row: it is answered as started
    await settle(started.runId);
    return started;
  }

  /**
   * Claims the client's row, or answers 409: a run of the client is still queued or running, or
   * another request holds the claim and has not recorded its run after the polls.
   */
  private async claim(
    client: string,
    isRunActive: (runId: number) => Promise<boolean>,
  ): Promise<Extract<Claim, { outcome: 'claimed' }>> {
    const keys = { partitionKey: PARTITION, rowKey: client };
    for (let poll = 0; ; poll++) {
      const claim = await this.rows.update<Claim>(keys, async (row) => {
        const now = this.now();
        if (liveClaimOf(row, now)) return { result: { outcome: 'busy' } };
        const last = runIdOf(row);
        if (last !== undefined && (await isRunActive(last))) {
          throw new ConflictError(
            `A manual backup of ${client} is already running (run ${last}). Wait until it completes, then start another.`,
          );
        }
        const claimId = randomUUID();
        return {
          write: {
            ...recordOf(last),
            ClaimId: claimId,
            ClaimedUntil: new Date(now.getTime() + this.claimInMs).toISOString(),
          },
          result: {
            outcome: 'claimed',
            claimId,
            ...(last !== undefined ? { previousRunId: last } : {}),
          },
        };
      });
      if (claim.outcome === 'claimed') return claim;
      if (poll >= this.polls) {
        throw new ConflictError(
          `A manual backup of ${client} is being started by another request. Wait until it completes, then start another.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollInMs));
    }
  }
}

function recordOf(runId: number | undefined): Record<string, number> {
  return runId !== undefined ? { RunId: runId } : {};
}

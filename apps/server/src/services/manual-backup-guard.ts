import { ConflictError } from '@aegis/domain';

import { KeyedLock } from '../lib/keyed-lock';

export interface StartedBackup {
  runId: number;
}

/**
 * One manual backup per client at a time (issue 9 §3, ADR 012): two backups started in the same
 * second would make one tag, so while the run this server started for a client is still queued or
 * running, another request for that client answers 409 naming the run. Requests for one client are
 * checked one after another, so two simultaneous clicks cannot both pass the check.
 */
export class ManualBackupGuard {
  private readonly lock = new KeyedLock();
  private readonly lastRun = new Map<string, number>();

  start<T extends StartedBackup>(
    client: string,
    isRunActive: (runId: number) => Promise<boolean>,
    startRun: () => Promise<T>,
  ): Promise<T> {
    return this.lock.run(client, async () => {
      const last = this.lastRun.get(client);
      if (last !== undefined && (await isRunActive(last))) {
        throw new ConflictError(
          `A manual backup of ${client} is already running (run ${last}). Wait until it completes, then start another.`,
        );
      }
      const started = await startRun();
      this.lastRun.set(client, started.runId);
      return started;
    });
  }
}

import { mustExist, orNotFound } from '@aegis/connectors';
import type { DevOpsApi } from '@aegis/connectors/devops';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';
import type {
  ClientScheduleRow,
  ClientYaml,
  ClientYamlPreview,
  ClientYamlUpdated,
  Pipeline,
  PipelineSchedule,
  ScheduleUpdated,
  UpdateSchedule,
} from '@aegis/contracts';
import {
  appListChanges,
  clientAppsTableName,
  clientYamlPath,
  ConflictError,
  describeCron,
  enabledAppNames,
  InputError,
  isGridTime,
  nextRunOf,
  NotFoundError,
  readAppList,
  readSchedules,
  SCHEDULE_MESSAGES,
  slotInUseText,
  takenSlots,
  weeklyDisplayName,
  weeklySlotOf,
  withAppList,
  withSingleSchedule,
} from '@aegis/domain';

import type { ProgressReporter } from '../lib/progress-stream';

import { PipelineRuns } from './pipeline-runs';
import { PipelinesService } from './pipelines-service';

function toSchedule(schedule: { cron: string; displayName?: string }, now: Date): PipelineSchedule {
  return {
    cron: schedule.cron,
    displayName: schedule.displayName ?? schedule.cron,
    description: describeCron(schedule.cron),
    nextRun: nextRunOf(schedule.cron, now)?.toISOString() ?? null,
  };
}

/**
 * Client app deployment YAML files and their weekly schedules (spec 2 §2, §5, §7; issue 16):
 * read from and written to Client_Yaml_Files/{folder}-azure-pipelines.yml on main of the
 * configuration repository, through its one writer (read, change, push with oldObjectId).
 */
export class ClientPipelinesService {
  constructor(
    private readonly devops: DevOpsApi,
    private readonly repository: ConfigRepository,
    private readonly tables: () => AppTables,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private mainTip(): Promise<string> {
    return this.repository.branchTip('main');
  }

  private async readAt(folder: string, commitId: string): Promise<string | undefined> {
    return (await this.repository.readText(clientYamlPath(folder), { commit: commitId }))?.text;
  }

  /** The client's YAML on main, with the apps it deploys. */
  async readYaml(folder: string): Promise<ClientYaml> {
    const commitId = await this.mainTip();
    const content = await mustExist(
      this.readAt(folder, commitId),
      `${SCHEDULE_MESSAGES.yamlContentFailed}: ${clientYamlPath(folder)}`,
    );
    return { folder, path: clientYamlPath(folder), content, commitId, apps: readAppList(content) };
  }

  /** What 'Update YAML with Apps' would write: the enabled apps of '{folder}WorkstationApps'. */
  async previewApps(folder: string): Promise<ClientYamlPreview> {
    const current = await this.readYaml(folder);
    const table = clientAppsTableName(folder);
    const rows = await orNotFound(
      this.tables().listEntities(table),
      // the YAML read fine: what is missing is the table its app list is made from
      `${folder} has no app table ${table}: create it (Create New App Deploy Table), then update the YAML with its apps.`,
    );
    const nextApps = enabledAppNames(rows);
    return {
      ...current,
      table,
      nextApps,
      nextContent: withAppList(current.content, nextApps),
      changes: appListChanges(current.apps, nextApps),
    };
  }

  /**
   * Writes the regenerated app list over the file the user saw the preview of (at `commitId`). If
   * the file itself changed since, answers 409 so nobody's change is overwritten unseen; other
   * commits to main meanwhile do not matter (the write is re-applied on the new tip).
   */
  async updateApps(folder: string, commitId: string): Promise<ClientYamlUpdated> {
    const path = clientYamlPath(folder);
    const [seen, preview] = await Promise.all([
      this.readAt(folder, commitId),
      this.previewApps(folder),
    ]);
    if (seen === undefined) {
      throw new NotFoundError(`${path} does not exist at commit ${commitId.slice(0, 8)}`);
    }
    const written = await this.repository.updateTextFile(
      path,
      (current) => {
        if (current !== seen) {
          throw new ConflictError(
            `${path} changed since it was shown: view it again, then update.`,
          );
        }
        return withAppList(current, preview.nextApps);
      },
      `Update ${folder} app list from ${preview.table}`,
    );
    return {
      message: SCHEDULE_MESSAGES.yamlUpdated,
      commitId: written.commitId,
      apps: preview.nextApps,
    };
  }

  /** The client pipelines, one per folder: its first (the app deployment pipeline). */
  private async clientPipelines(): Promise<Pipeline[]> {
    // the folder's YAML is Client_Yaml_Files/{folder}-…, shared by the folder's pipelines, so the
    // row names the folder's first pipeline (its app deployment)
    const byFolder = new Map<string, Pipeline>();
    for (const pipeline of await new PipelinesService(
      this.devops,
      new PipelineRuns(this.devops),
    ).listClientPipelines()) {
      const known = byFolder.get(pipeline.folder);
      if (!known || pipeline.id < known.id) byFolder.set(pipeline.folder, pipeline);
    }
    return [...byFolder.values()];
  }

  /**
   * The schedules of each pipeline's YAML at one commit. For display a failed read gives none
   * (spec 2 §8); for the slot check (`strict`) only YAML that does not parse gives none (Azure
   * Pipelines runs no schedule from it either) and a failed read fails the check.
   */
  private schedulesAt(
    pipelines: readonly Pipeline[],
    commitId: string,
    options: { strict?: boolean; onRead?: () => void } = {},
  ): Promise<ClientScheduleRow[]> {
    const now = this.now();
    return Promise.all(
      pipelines.map(async (pipeline): Promise<ClientScheduleRow> => {
        let schedules: PipelineSchedule[] = [];
        try {
          const content = await this.readAt(pipeline.folder, commitId);
          schedules = content ? readSchedules(content).map((s) => toSchedule(s, now)) : [];
        } catch (error) {
          if (options.strict && !(error instanceof InputError)) throw error;
          schedules = [];
        }
        options.onRead?.();
        return {
          clientCode: pipeline.folder,
          pipelineId: pipeline.id,
          pipelineName: pipeline.name,
          project: pipeline.project,
          schedules,
        };
      }),
    );
  }

  /** Every client pipeline with the schedules of its YAML (spec 2 §3: client schedule rows). */
  async listSchedules(
    onProgress: ProgressReporter = () => undefined,
  ): Promise<ClientScheduleRow[]> {
    const pipelines = await this.clientPipelines();
    onProgress(10);
    const commitId = await this.mainTip();
    let done = 0;
    const rows = await this.schedulesAt(pipelines, commitId, {
      onRead: () => {
        done += 1;
        onProgress(10 + (90 * done) / Math.max(pipelines.length, 1));
      },
    });
    return rows.sort((a, b) => a.clientCode.localeCompare(b.clientCode));
  }

  /**
   * Rewrites the client's YAML with the single weekly schedule (spec 2 §9), refusing a slot another
   * client holds on that day with 'Time slot in use by - {client}' (409).
   */
  async updateSchedule(folder: string, request: UpdateSchedule): Promise<ScheduleUpdated> {
    const slot = weeklySlotOf(request.cronExpression);
    if (!slot || !isGridTime(slot.hour, slot.minute)) {
      throw new InputError(
        'cronExpression: must be a weekly cron on the 30-minute grid (minute hour * * weekday)',
        'cronExpression',
      );
    }
    const cron = `${slot.minute} ${slot.hour} * * ${slot.weekday}`;
    const displayName = weeklyDisplayName(slot);
    if (request.displayName !== displayName) {
      throw new InputError(`displayName: must be '${displayName}' for ${cron}`, 'displayName');
    }
    const pipelines = await this.clientPipelines();
    if (!pipelines.some((pipeline) => pipeline.folder === folder)) {
      throw new NotFoundError(SCHEDULE_MESSAGES.pipelineNotFound);
    }
    const slotKey = `${String(slot.hour).padStart(2, '0')}:${String(slot.minute).padStart(2, '0')}`;
    const path = clientYamlPath(folder);
    const written = await this.repository.updateTextFile(
      path,
      // The slot is checked against every YAML at the commit this write is pushed on: a save of
      // the same slot by anyone, on any server, moves main and makes this push stale, so it is
      // re-checked on the new tip and refused (ADR 056). Two holders cannot both land.
      async (current, base) => {
        if (current === undefined) {
          throw new NotFoundError(`${SCHEDULE_MESSAGES.yamlContentFailed}: ${path}`);
        }
        const rows = await this.schedulesAt(pipelines, base.commitId, { strict: true });
        const holder = takenSlots(rows, slot.weekday, folder).get(slotKey);
        if (holder) throw new ConflictError(slotInUseText(holder));
        return withSingleSchedule(current, { cron, displayName });
      },
      `Schedule ${folder}: ${displayName}`,
    );
    return {
      message: SCHEDULE_MESSAGES.updated,
      commitId: written.commitId,
      schedule: toSchedule({ cron, displayName }, this.now()),
    };
  }
}

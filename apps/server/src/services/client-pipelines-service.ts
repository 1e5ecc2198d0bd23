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
import { mustExist, orNotFound } from '../lib/upstream-errors';

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

  /** Every client pipeline with the schedules of its YAML (spec 2 §3: client schedule rows). */
  async listSchedules(
    onProgress: ProgressReporter = () => undefined,
  ): Promise<ClientScheduleRow[]> {
    // one row per client: the folder's YAML is Client_Yaml_Files/{folder}-…, shared by the
    // folder's pipelines, so the row names the folder's first pipeline (its app deployment)
    const byFolder = new Map<string, Pipeline>();
    for (const pipeline of await new PipelinesService(
      this.devops,
      new PipelineRuns(this.devops),
    ).listClientPipelines()) {
      const known = byFolder.get(pipeline.folder);
      if (!known || pipeline.id < known.id) byFolder.set(pipeline.folder, pipeline);
    }
    const pipelines = [...byFolder.values()];
    onProgress(10);
    const commitId = await this.mainTip();
    const now = this.now();
    let done = 0;
    const rows = await Promise.all(
      pipelines.map(async (pipeline): Promise<ClientScheduleRow> => {
        let schedules: PipelineSchedule[] = [];
        try {
          const content = await this.readAt(pipeline.folder, commitId);
          schedules = content ? readSchedules(content).map((s) => toSchedule(s, now)) : [];
        } catch {
          // spec 2 §8: a failed schedule read gives nothing
          schedules = [];
        }
        done += 1;
        onProgress(10 + (90 * done) / Math.max(pipelines.length, 1));
        return {
          clientCode: pipeline.folder,
          pipelineId: pipeline.id,
          pipelineName: pipeline.name,
          project: pipeline.project,
          schedules,
        };
      }),
    );
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
    const rows = await this.listSchedules();
    if (!rows.some((row) => row.clientCode === folder)) {
      throw new NotFoundError(SCHEDULE_MESSAGES.pipelineNotFound);
    }
    const holder = takenSlots(rows, slot.weekday, folder).get(
      `${String(slot.hour).padStart(2, '0')}:${String(slot.minute).padStart(2, '0')}`,
    );
    if (holder) throw new ConflictError(slotInUseText(holder));
    const path = clientYamlPath(folder);
    const written = await this.repository.updateTextFile(
      path,
      (current) => {
        if (current === undefined) {
          throw new NotFoundError(`${SCHEDULE_MESSAGES.yamlContentFailed}: ${path}`);
        }
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

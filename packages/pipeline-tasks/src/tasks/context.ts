// What every task is given: where to log, the configuration repository, the client tenant and the
// run it belongs to. The command line builds it from the agent's environment; the emulator's
// runner builds it from its own state. Neither knows which one it is.
import type { BlobStore } from '@aegis/connectors/blobs';
import type { DevOpsApi, PipelineDefinitionsPort } from '@aegis/connectors/devops';
import type { MailSender } from '@aegis/connectors/graph';
import type { ConfigRepository } from '@aegis/connectors/repository';
import type { AppTables } from '@aegis/connectors/tables';

import type { TaskLog } from '../log';
import type { TenantGateway } from '../tenant/gateway';

export interface PipelineDefinitionTarget {
  /** project the client's pipelines are created in */
  project: string;
  /** repository id or name the pipelines' YAML lives in */
  repository: string;
}

export interface TaskContext {
  log: TaskLog;
  runId: number;
  /** who started the run (Build.RequestedForEmail): the capture metadata's triggeredBy */
  requestedBy?: string;
  now(): Date;
  repository: ConfigRepository;
  /** the client tenant (tenantId: onboarding passes the one it was given) */
  tenant(tenantId?: string): Promise<TenantGateway>;
  devops: DevOpsApi & PipelineDefinitionsPort;
  /** where onboarding creates pipelines (default: the run's project and config repository) */
  pipelines: PipelineDefinitionTarget;
  /** app-deploy onboarding creates the client's table here; the fleet rebuild and reports keep rows */
  tables?: AppTables;
  /** Blob storage: customer reports keep their PDFs here */
  blobs?: BlobStore;
  /** the MSP's sending mailbox (Graph sendMail): customer reports go out through it */
  mail?: MailSender;
}

export {
  ALL_CLIENTS,
  DEFAULT_ENGINE_SETTINGS,
  acknowledge,
  applyEvent,
  applyTime,
  claimDeliveries,
  escalationDueAt,
  isClaimable,
  isSnoozed,
  nextDigestAt,
  nextDueAt,
  retryDelayInMs,
  routesFor,
  settleDelivery,
  snooze,
  stateOf,
} from './engine';
export type { Routes, SendOutcome } from './engine';
export { emailFor, headline, teamsMessageFor, webhookPayloadFor } from './messages';
export type { EmailContent, MessageItem } from './messages';
export {
  DEFAULT_APPROVAL_WAITING_HOURS,
  DEFAULT_DEVIATION_EXPIRING_DAYS,
  approvalWaitingEvent,
  backupMissedEvent,
  deviationExpiryEvents,
  deviationSubject,
  resolutionsOfVanished,
  runOutcomeEvents,
  thresholdFor,
} from './producers';
export type {
  FinishedRunFacts,
  NewestBackup,
  OpenSubject,
  ReportedPipeline,
  ThresholdSetting,
  WaitingApproval,
} from './producers';
export type * from './types';

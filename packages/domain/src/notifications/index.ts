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
export type * from './types';

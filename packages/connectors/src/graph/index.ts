export {
  GRAPH_BASE_URL,
  GRAPH_BATCH_LIMIT,
  GRAPH_SCOPE,
  GraphClient,
  batchError,
  graphQueryString,
  odataString,
  parseGraphError,
} from './graph-client';
export type {
  GraphBatchRequest,
  GraphBatchResponse,
  GraphClientOptions,
  GraphCollection,
  GraphQuery,
  GraphRequestOptions,
  GraphVersion,
} from './graph-client';
export { DIRECTORY_ROLE_TEMPLATE_IDS, DirectoryClient } from './directory';
export type {
  DirectoryRole,
  DirectoryRoleTemplate,
  Organization,
  ServicePrincipal,
  User,
  VerifiedDomain,
} from './directory';
export { GraphMailSender, SEND_MAIL_REQUEST_LIMIT_IN_BYTES, sendMailBody } from './mail';
export type { MailAttachment, MailMessage, MailSender, SendMailOptions } from './mail';

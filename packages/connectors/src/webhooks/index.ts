export {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_IN_SECONDS,
  TIMESTAMP_HEADER,
  WebhookClient,
  verifyWebhookSignature,
  webhookSignature,
} from './webhook-client';
export type { WebhookClientOptions, WebhookPost, WebhookPoster } from './webhook-client';

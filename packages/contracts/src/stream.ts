/**
 * Long work streams as NDJSON (application/x-ndjson): progress events from the real work, then one
 * result or one error. Once the 200 is sent a failure can only be an event, so it carries its status.
 */
export type StreamEvent<T> =
  | { type: 'progress'; percent: number }
  | { type: 'result'; result: T }
  | { type: 'error'; statusCode: number; message: string };

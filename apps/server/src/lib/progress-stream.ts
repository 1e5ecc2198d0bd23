import { PassThrough } from 'node:stream';

import type { StreamEvent } from '@aegis/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { answerForError } from '../plugins/error-handler';

export type ProgressReporter = (percent: number) => void;

/**
 * Runs `work` and streams its progress as NDJSON. The 200 is sent with the first progress report,
 * so a failure before any work (bad tag, unknown client) is still an ordinary HTTP error; after
 * that, a failure is an error event carrying its status. Percentages only move forward.
 */
export async function streamProgress<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (onProgress: ProgressReporter) => Promise<T>,
  options: { errorPrefix?: string } = {},
): Promise<FastifyReply> {
  const out = new PassThrough();
  out.on('error', () => undefined); // the browser went away; nothing to tell it
  const write = (event: StreamEvent<T>): void => {
    if (!out.destroyed && !out.writableEnded) out.write(`${JSON.stringify(event)}\n`);
  };
  let started = false;
  let last = -1;
  const onProgress: ProgressReporter = (percent) => {
    if (!started) {
      started = true;
      void reply
        .code(200)
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(out);
    }
    const rounded = Math.max(0, Math.min(100, Math.floor(percent)));
    if (rounded <= last) return;
    last = rounded;
    write({ type: 'progress', percent: rounded });
  };

  try {
    const result = await work(onProgress);
    onProgress(100);
    write({ type: 'result', result });
  } catch (error) {
    if (!started) throw error;
    const err = error instanceof Error ? error : new Error(String(error));
    // The same status and message the error handler would have answered before the stream began.
    const answer = answerForError(err);
    const statusCode = answer.status;
    // the 200 went out before the failure: the audit trail records what really happened
    request.auditOutcome(statusCode);
    if (statusCode >= 500 && err.name !== 'ServiceError')
      request.log.error({ err }, 'streamed work failed');
    else request.log.warn({ err }, 'streamed work failed');
    // Services word their own failures (spec texts); only an unexpected crash gets the prefix.
    const internal = statusCode === 500 && err.name !== 'ServiceError';
    const message = internal ? `${options.errorPrefix ?? ''}Internal Server Error` : answer.message;
    write({ type: 'error', statusCode, message });
  }
  out.end();
  return reply;
}

import type { StreamEvent } from '@aegis/contracts';

import { ApiError, authorizedFetch, type ApiRequest } from './api-client';

/**
 * Calls an NDJSON endpoint of the Aegis API: progress events go to `onProgress` as they arrive,
 * the result resolves, an error event rejects with the server's message.
 */
export async function readProgressStream<T>(
  path: string,
  request: ApiRequest,
  onProgress: (percent: number) => void,
): Promise<T> {
  const response = await authorizedFetch(path, request);
  if (!response.body) throw new ApiError(502, 'No content returned from API');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let outcome: { result: T } | undefined;
  const handle = (line: string): void => {
    if (!line.trim()) return;
    const event = JSON.parse(line) as StreamEvent<T>;
    if (event.type === 'progress') onProgress(event.percent);
    else if (event.type === 'result') outcome = { result: event.result };
    else throw new ApiError(event.statusCode, event.message);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      handle(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  }
  handle(buffer);
  if (!outcome) throw new ApiError(502, 'Unexpected response format from Azure DevOps API');
  return outcome.result;
}

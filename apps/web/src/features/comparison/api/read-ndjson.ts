import { ApiError, authorizedFetch, type ApiRequest } from '../../../lib/api-client';

interface StreamEvent<T> {
  type: 'progress' | 'result' | 'error';
  percent?: number;
  result?: T;
  message?: string;
  statusCode?: number;
}

/**
 * Calls an NDJSON endpoint of the comparison API: progress events go to `onProgress` as they arrive,
 * the result resolves, an error event rejects with the server's message (spec 1 §8).
 */
export async function readNdjson<T>(
  path: string,
  request: ApiRequest,
  onProgress: (percent: number) => void,
): Promise<T> {
  const response = await authorizedFetch(path, request);
  if (!response.body) throw new ApiError(502, 'No content returned from API');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let outcome: { result: T } | undefined;
  const handle = (line: string) => {
    if (!line.trim()) return;
    const event = JSON.parse(line) as StreamEvent<T>;
    if (event.type === 'progress' && typeof event.percent === 'number') onProgress(event.percent);
    else if (event.type === 'result') outcome = { result: event.result as T };
    else if (event.type === 'error')
      throw new ApiError(event.statusCode ?? 500, event.message ?? 'Request failed');
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

/** The URL a `fetch` was called with, whichever form it took: text, a URL or a Request. */
export function requestUrl(input: string | URL | Request): URL {
  return new URL(input instanceof Request ? input.url : input);
}

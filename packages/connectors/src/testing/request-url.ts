/** The URL a test double of `fetch` was called with: a string, a URL or a Request. */
export function requestUrl(input: string | URL | Request): string {
  return input instanceof Request ? input.url : input.toString();
}

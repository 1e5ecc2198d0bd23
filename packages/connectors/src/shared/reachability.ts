// Whether a service this server depends on answers, for the readiness endpoint (ADR 053): one
// anonymous request with a short timeout, no retries (an orchestrator probes again by itself).

export type Reachability = { reachable: true } | { reachable: false; reason: string };

export interface ReachabilityOptions {
  timeoutInMs: number;
  fetch?: typeof fetch;
}

/** What the service's answer means for readiness. */
export type AnswerRule = (response: Response) => Reachability | Promise<Reachability>;

export async function probe(
  url: string,
  rule: AnswerRule,
  { timeoutInMs, fetch: fetchImpl = fetch }: ReachabilityOptions,
): Promise<Reachability> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutInMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return {
      reachable: false,
      reason: timedOut
        ? `no answer within ${timeoutInMs} ms`
        : `unreachable (${cause instanceof Error ? cause.message : String(cause)})`,
    };
  }
  try {
    return await rule(response);
  } finally {
    // an unread body keeps the connection busy
    await response.body?.cancel().catch(() => undefined);
  }
}

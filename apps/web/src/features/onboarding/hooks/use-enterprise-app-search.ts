import {
  ENTERPRISE_APP_SEARCH,
  enterpriseAppSearchDelays,
  graphErrorText,
  retryingText,
  SEARCH_NOT_FOUND,
  SEARCH_UNAUTHORIZED,
  SEARCHING_TEXT,
  searchFailedText,
} from '@aegis/domain';
import { useCallback, useEffect, useRef, useState } from 'react';

import { searchEnterpriseApp } from '../api/onboarding-api';

export type SearchState =
  | { status: 'idle' }
  | { status: 'searching'; text: string; lastError?: string }
  | { status: 'found'; servicePrincipal: { id: string; appId: string; displayName: string } }
  | { status: 'failed'; text: string };

/**
 * Spec 2 §4, §8, §9: up to 6 searches, waiting 3000 ms then ×1.5 between them; a 401 stops at
 * once, other errors are retried. `search()` also resolves with where it ended, so a flow that
 * needs the app (tenant onboarding's role assignment) can wait for it.
 */
export function useEnterpriseAppSearch(sleep: (ms: number) => Promise<void> = defaultSleep) {
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const cancelled = useRef(false);
  useEffect(() => {
    cancelled.current = false;
    return () => {
      cancelled.current = true;
    };
  }, []);

  const search = useCallback(async (): Promise<SearchState> => {
    const delays = enterpriseAppSearchDelays();
    const settle = (final: SearchState): SearchState => {
      if (!cancelled.current) setState(final);
      return final;
    };
    const abandoned: SearchState = { status: 'idle' };
    setState({ status: 'searching', text: SEARCHING_TEXT });
    let lastError: string | undefined;
    for (let attempt = 1; attempt <= ENTERPRISE_APP_SEARCH.maxAttempts; attempt += 1) {
      try {
        const result = await searchEnterpriseApp();
        if (cancelled.current) return abandoned;
        if (result.status === 'found') {
          return settle({ status: 'found', servicePrincipal: result.servicePrincipal });
        }
        if (result.status === 'unauthorized') {
          return settle({ status: 'failed', text: SEARCH_UNAUTHORIZED });
        }
        lastError =
          result.status === 'error' ? graphErrorText(result.httpStatus, result.body) : undefined;
      } catch (error) {
        if (cancelled.current) return abandoned;
        return settle({ status: 'failed', text: searchFailedText((error as Error).message) });
      }
      if (attempt === ENTERPRISE_APP_SEARCH.maxAttempts) break;
      setState({
        status: 'searching',
        text: retryingText(attempt),
        ...(lastError ? { lastError } : {}),
      });
      await sleep(delays[attempt - 1] ?? ENTERPRISE_APP_SEARCH.initialDelayInMs);
      if (cancelled.current) return abandoned;
    }
    return settle({
      status: 'failed',
      text: lastError ? searchFailedText(lastError) : SEARCH_NOT_FOUND,
    });
  }, [sleep]);

  return { state, search };
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

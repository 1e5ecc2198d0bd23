import { Button, Spinner } from '@fluentui/react-components';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { ResultBar } from './result-bar';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What a page shows for one read: a spinner while it loads, the error with Retry when it failed,
 * else its content drawn from the data. Retry reads again; the bar is an alert (ResultBar).
 */
export function QueryState<Data>({
  query,
  loading,
  failed,
  children,
}: {
  query: UseQueryResult<Data>;
  /** the spinner's label, "Loading the rollouts..." */
  loading: string;
  /** the error bar's title, "The rollouts could not be loaded" */
  failed: string;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) {
    return (
      <ResultBar
        intent="error"
        title={failed}
        actions={<Button onClick={() => void query.refetch()}>Retry</Button>}
      >
        {message(query.error)}
      </ResultBar>
    );
  }
  return <>{children(query.data)}</>;
}

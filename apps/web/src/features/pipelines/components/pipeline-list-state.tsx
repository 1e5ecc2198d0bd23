import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
} from '@fluentui/react-components';
import type { UseQueryResult } from '@tanstack/react-query';

const useStyles = makeStyles({
  empty: {
    padding: '48px',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '8px',
    textAlign: 'center',
  },
  heading: { margin: 0 },
});

/** Loading, error and empty states shared by both pipeline screens. */
export function PipelineListState({
  query,
  count,
}: {
  query: UseQueryResult<unknown>;
  count: number;
}) {
  const styles = useStyles();
  if (query.isPending) return <Spinner label="Loading pipelines..." />;
  if (query.isError) {
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Error Loading Pipelines</MessageBarTitle>
          {query.error.message}
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void query.refetch()}>Try Again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (count === 0) {
    return (
      <div className={styles.empty} role="status">
        {/* Fluent's Text aligns to the start unless told: both lines are centred alike. */}
        <Text as="h2" size={500} weight="semibold" align="center" block className={styles.heading}>
          No client pipelines found
        </Text>
        <Text align="center" block>
          Client pipelines live in a folder named after the client code, such as \ABC.
        </Text>
      </div>
    );
  }
  return null;
}

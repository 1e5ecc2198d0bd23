import { countOf, REDIRECT_COUNTDOWN_SECONDS, type MergeResult } from '@aegis/domain';
import { Badge, Card, Link, makeStyles, Text, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';

const useStyles = makeStyles({
  card: { padding: '20px', gap: '10px', maxWidth: '760px' },
  head: { display: 'flex', gap: '8px', alignItems: 'center' },
  branch: { fontFamily: tokens.fontFamilyMonospace },
});

/** The success step (spec 3 §2): the pull request and a 5-second return to the selector. */
export function SuccessStep({
  branch,
  result,
  onDone,
}: {
  branch: string;
  result: MergeResult;
  onDone: () => void;
}) {
  const styles = useStyles();
  const [seconds, setSeconds] = useState(REDIRECT_COUNTDOWN_SECONDS);
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (seconds === 0) done.current();
  }, [seconds]);

  return (
    <Card className={styles.card}>
      <div className={styles.head}>
        <CheckmarkCircleRegular
          aria-hidden
          fontSize={28}
          color={tokens.colorPaletteGreenForeground1}
        />
        <Text as="h2" size={600} weight="semibold">
          Pull Request Created!
        </Text>
      </div>
      <Text>
        Pull request{' '}
        <Link href={result.prUrl} target="_blank" rel="noreferrer">
          #{result.pullRequestId}
        </Link>
      </Text>
      <div>
        Status: <Badge color="informative">Awaiting Azure DevOps Approval</Badge>
      </div>
      <Text>
        Branch: <span className={styles.branch}>{branch}</span>
      </Text>
      <Text>Created by: {result.createdBy}</Text>
      <Link href={result.prUrl} target="_blank" rel="noreferrer">
        View Pull Request in Azure DevOps
      </Link>
      <Text weight="semibold">Next steps</Text>
      <ul>
        <li>The pull request must be approved in Azure DevOps.</li>
        <li>Once approved, it merges the capture into main.</li>
        <li>The capture branch stays visible here until the merge completes.</li>
        <li>A notification follows when the merge is done.</li>
      </ul>
      <Text role="status">Returning to capture selector in {countOf(seconds, 'second')}...</Text>
    </Card>
  );
}

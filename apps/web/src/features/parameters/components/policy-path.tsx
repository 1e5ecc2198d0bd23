import { makeStyles } from '@fluentui/react-components';
import { Fragment } from 'react';

const useStyles = makeStyles({
  // breaks inside a name only when one segment alone is wider than the column
  path: { overflowWrap: 'break-word' },
});

/** A policy's resource path that wraps after its '/' separators rather than mid-word. */
export function PolicyPath({ path }: { path: string }) {
  const styles = useStyles();
  return (
    <span className={styles.path}>
      {path.split('/').map((segment, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              /<wbr />
            </>
          )}
          {segment}
        </Fragment>
      ))}
    </span>
  );
}

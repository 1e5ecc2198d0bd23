import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  page: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '8px',
    marginTop: '96px',
    color: tokens.colorNeutralForeground2,
  },
  ring: {
    width: '32px',
    height: '32px',
    borderRadius: '50%',
    border: `3px solid ${tokens.colorBrandStroke2}`,
    borderTopColor: tokens.colorBrandStroke1,
    animationName: { to: { transform: 'rotate(360deg)' } },
    animationDuration: '0.9s',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'linear',
    '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
  },
});

/**
 * Shown while a route's code loads. A ring drawn with CSS in Fluent's colours rather than
 * Fluent's Spinner, which would add its code (and its Label's) to what the landing page loads.
 */
export function PageLoading() {
  const styles = useStyles();
  return (
    <div className={styles.page} role="status">
      <div className={styles.ring} aria-hidden />
      <span>Loading...</span>
    </div>
  );
}

import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';

import type { ViewCategory } from '../utils/view-model';

const useStyles = makeStyles({
  columns: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '16px' },
  scroll: { maxHeight: '50vh', overflowY: 'auto' },
  list: {
    margin: 0,
    paddingLeft: '18px',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
  },
  pass: { color: tokens.colorPaletteGreenForeground1 },
  fail: { color: tokens.colorPaletteRedForeground1 },
});

/** The per-area 'View Details' modal: passing and failing policies of one area. */
export function AreaDetailsDialog({
  category,
  onClose,
}: {
  category: ViewCategory | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const passing = category?.policies.filter((p) => p.pass) ?? [];
  const failing = category?.policies.filter((p) => !p.pass) ?? [];
  return (
    <Dialog open={Boolean(category)} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{category?.name} – Details</DialogTitle>
          <DialogContent>
            <div className={styles.columns}>
              <section aria-label="Passing policies">
                <Text weight="semibold" className={styles.pass} block>
                  Passing policies{' '}
                  <Badge appearance="tint" color="success">
                    {passing.length}
                  </Badge>
                </Text>
                {passing.length === 0 ? (
                  <Text>None</Text>
                ) : (
                  <div
                    className={styles.scroll}
                    role="region"
                    aria-label="Passing policy names"
                    tabIndex={0}
                  >
                    <ul className={styles.list}>
                      {passing.map((p) => (
                        <li key={p.key}>{p.name}</li>
                      ))}
                    </ul>
                  </div>
                )}
              </section>
              <section aria-label="Failing policies">
                <Text weight="semibold" className={styles.fail} block>
                  Failing policies{' '}
                  <Badge appearance="tint" color="danger">
                    {failing.length}
                  </Badge>
                </Text>
                {failing.length === 0 ? (
                  <Text>None</Text>
                ) : (
                  <div
                    className={styles.scroll}
                    role="region"
                    aria-label="Failing policy names"
                    tabIndex={0}
                  >
                    <ul className={styles.list}>
                      {failing.map((p) => (
                        <li key={p.key}>{p.name}</li>
                      ))}
                    </ul>
                  </div>
                )}
              </section>
            </div>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

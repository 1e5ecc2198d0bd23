import type { Backup } from '@aegis/contracts';
import { displayBackupValue } from '@aegis/domain';
import {
  Badge,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleFilled, DismissCircleFilled } from '@fluentui/react-icons';

import { useBackupComparison } from '../hooks/use-backup-comparison';

import { BackupDialogActions } from './backup-dialog-actions';

const useStyles = makeStyles({
  surface: { maxWidth: '1100px', width: '94vw' },
  subtitle: { color: tokens.colorNeutralForeground3, marginBottom: '12px', display: 'block' },
  counts: { display: 'flex', gap: '8px', marginBottom: '12px', flexWrap: 'wrap' },
  scroll: { maxHeight: '58vh', overflow: 'auto', paddingRight: '4px' },
  category: {
    marginTop: '12px',
    padding: '6px 8px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
  file: { marginTop: '8px', marginBottom: '4px', display: 'block' },
  table: { tableLayout: 'auto' },
  matchColumn: { width: '64px' },
  differs: { backgroundColor: tokens.colorPaletteRedBackground1 },
  value: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    wordBreak: 'break-word',
  },
  match: { color: tokens.colorPaletteGreenForeground1, fontSize: '18px' },
  mismatch: { color: tokens.colorPaletteRedForeground1, fontSize: '18px' },
});

/**
 * Configuration Comparison (spec 3 §2): the tag against the current configuration; counts; results
 * by category then file; Setting, Backup Value, Current Value, Match; differing rows highlighted.
 */
export function BackupComparisonDialog({
  client,
  backup,
  restoring = false,
  onClose,
  onRestore,
}: {
  client: string;
  backup: Backup | undefined;
  /** a restore is running: Restore This Backup is disabled and shows a spinner */
  restoring?: boolean;
  onClose: () => void;
  onRestore: (backup: Backup) => void;
}) {
  const styles = useStyles();
  const { progress, result, failed } = useBackupComparison(client, backup?.tagName);
  const ready = result && result.tagName === backup?.tagName ? result : undefined;

  return (
    <Dialog open={backup !== undefined} onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Configuration Comparison</DialogTitle>
          <DialogContent>
            <Text className={styles.subtitle}>{backup?.tagName} vs Current Configuration</Text>
            {!ready && !failed && (
              <Field validationMessage={`${progress}% complete`} validationState="none">
                <ProgressBar value={progress / 100} aria-label="Comparison progress" />
              </Field>
            )}
            {failed && (
              <Text role="status">The comparison could not be completed. Close and try again.</Text>
            )}
            {ready && (
              <>
                <div className={styles.counts}>
                  <Badge appearance="tint" color="warning" size="large">
                    {`Changes: ${ready.counts.changes}`}
                  </Badge>
                  <Badge appearance="tint" color="success" size="large">
                    {`Additions: ${ready.counts.additions}`}
                  </Badge>
                  <Badge appearance="tint" color="danger" size="large">
                    {`Deletions: ${ready.counts.deletions}`}
                  </Badge>
                </div>
                <div
                  className={styles.scroll}
                  role="region"
                  aria-label="Differences by category"
                  tabIndex={0}
                >
                  {Object.entries(ready.results).map(([category, files]) => (
                    <section key={category} aria-label={`Category ${category}`}>
                      <Text as="h3" weight="semibold" size={400} block className={styles.category}>
                        {category}
                      </Text>
                      {Object.entries(files).map(([file, rows]) => (
                        <div key={file}>
                          <Text weight="semibold" className={styles.file}>
                            {file}
                          </Text>
                          <Table
                            size="extra-small"
                            aria-label={`${category} ${file}`}
                            className={styles.table}
                          >
                            <TableHeader>
                              <TableRow>
                                <TableHeaderCell>Setting</TableHeaderCell>
                                <TableHeaderCell>Backup Value</TableHeaderCell>
                                <TableHeaderCell>Current Value</TableHeaderCell>
                                <TableHeaderCell className={styles.matchColumn}>
                                  Match
                                </TableHeaderCell>
                              </TableRow>
                            </TableHeader>
                            <TableBody>
                              {rows.map((row, i) => (
                                <TableRow
                                  key={`${row.Name}-${i}`}
                                  className={row.Equal ? undefined : styles.differs}
                                >
                                  <TableCell className={styles.value}>
                                    {row.Name || '(file)'}
                                  </TableCell>
                                  <TableCell className={styles.value}>
                                    {displayBackupValue(row.BackupValue)}
                                  </TableCell>
                                  <TableCell className={styles.value}>
                                    {displayBackupValue(row.CurrentValue)}
                                  </TableCell>
                                  <TableCell>
                                    {row.Equal ? (
                                      <CheckmarkCircleFilled
                                        className={styles.match}
                                        aria-label="Match"
                                      />
                                    ) : (
                                      <DismissCircleFilled
                                        className={styles.mismatch}
                                        aria-label="No match"
                                      />
                                    )}
                                  </TableCell>
                                </TableRow>
                              ))}
                            </TableBody>
                          </Table>
                        </div>
                      ))}
                    </section>
                  ))}
                </div>
              </>
            )}
          </DialogContent>
          <BackupDialogActions
            backup={backup}
            restoring={restoring}
            onClose={onClose}
            onRestore={onRestore}
          />
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

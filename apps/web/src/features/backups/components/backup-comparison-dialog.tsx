import type { Backup } from '@aegis/contracts';
import { displayBackupValue, displayValue } from '@aegis/domain';
import {
  Badge,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  mergeClasses,
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
import { Fragment } from 'react';

import { BreakableText } from '../../../components/breakable-text';
import { useBackupComparison } from '../hooks/use-backup-comparison';

import { BackupDialogActions } from './backup-dialog-actions';

const useStyles = makeStyles({
  surface: { maxWidth: '1100px', width: '94vw' },
  subtitle: { color: tokens.colorNeutralForeground3, marginBottom: '12px', display: 'block' },
  counts: { display: 'flex', gap: '8px', marginBottom: '12px', flexWrap: 'wrap' },
  scroll: {
    maxHeight: '58vh',
    overflow: 'auto',
    paddingRight: '4px',
    // what the keyboard focuses (or a link scrolls to) is never hidden under the sticky header
    scrollPaddingTop: '40px',
  },
  // One column layout for every file: fixed widths, so the columns line up from file to file.
  table: { tableLayout: 'fixed', width: '100%' },
  head: {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: `inset 0 -1px 0 ${tokens.colorNeutralStroke1}`,
  },
  settingColumn: { width: '30%' },
  valueColumn: { width: 'calc((70% - 64px) / 2)' },
  matchColumn: { width: '64px' },
  group: { padding: 0, textAlign: 'start', fontWeight: tokens.fontWeightRegular },
  category: {
    display: 'block',
    margin: '12px 0 0',
    padding: '6px 8px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: tokens.lineHeightBase400,
  },
  file: {
    display: 'block',
    padding: '10px 8px 4px',
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'break-word',
  },
  differs: { backgroundColor: tokens.colorPaletteRedBackground1 },
  cell: { verticalAlign: 'top', paddingTop: '4px', paddingBottom: '4px' },
  value: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'break-word',
    minWidth: 0,
  },
  summary: { cursor: 'pointer', overflowWrap: 'break-word' },
  json: {
    display: 'block',
    margin: '4px 0 0',
    padding: '6px 8px',
    overflowWrap: 'break-word',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
  },
  // a wrapped JSON line continues indented under its own start, not at the left edge
  jsonLine: { display: 'block', textIndent: '-2ch' },
  match: { color: tokens.colorPaletteGreenForeground1, fontSize: '18px' },
  mismatch: { color: tokens.colorPaletteRedForeground1, fontSize: '18px' },
});

/**
 * A value of the comparison: 'Missing' as N/A; an object or array as JSON (spec 3 §2), collapsed
 * to one line that opens to the pretty-printed JSON (a native disclosure: Enter or Space on it),
 * one line per element so that a wrapped line stays indented in a narrow column.
 */
function BackupValue({ value }: { value: unknown }) {
  const styles = useStyles();
  if (typeof value === 'object' && value !== null) {
    return (
      <details>
        <summary className={styles.summary}>
          <BreakableText text={displayValue(value)} />
        </summary>
        <code className={styles.json}>
          {JSON.stringify(value, null, 2)
            .split('\n')
            .map((line, i) => {
              const indent = line.length - line.trimStart().length;
              return (
                <span
                  key={i}
                  className={styles.jsonLine}
                  style={{ paddingLeft: `${indent + 2}ch` }}
                >
                  <BreakableText text={line.trimStart()} />
                </span>
              );
            })}
        </code>
      </details>
    );
  }
  return <BreakableText text={displayBackupValue(value)} />;
}

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
                  <Table size="extra-small" className={styles.table} aria-label="Differences">
                    <TableHeader className={styles.head}>
                      <TableRow>
                        <TableHeaderCell className={styles.settingColumn}>Setting</TableHeaderCell>
                        <TableHeaderCell className={styles.valueColumn}>
                          Backup Value
                        </TableHeaderCell>
                        <TableHeaderCell className={styles.valueColumn}>
                          Current Value
                        </TableHeaderCell>
                        <TableHeaderCell className={styles.matchColumn}>Match</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    {Object.entries(ready.results).map(([category, files]) => (
                      <Fragment key={category}>
                        <TableBody aria-label={`Category ${category}`}>
                          <TableRow>
                            <th colSpan={4} scope="rowgroup" className={styles.group}>
                              <Text as="h3" className={styles.category}>
                                {category}
                              </Text>
                            </th>
                          </TableRow>
                        </TableBody>
                        {Object.entries(files).map(([file, rows]) => (
                          <TableBody key={file} aria-label={`${category} ${file}`}>
                            <TableRow>
                              <th colSpan={4} scope="rowgroup" className={styles.group}>
                                <span className={styles.file}>
                                  <BreakableText text={file} />
                                </span>
                              </th>
                            </TableRow>
                            {rows.map((row, i) => (
                              <TableRow
                                key={`${row.Name}-${i}`}
                                className={row.Equal ? undefined : styles.differs}
                              >
                                <TableCell className={mergeClasses(styles.cell, styles.value)}>
                                  <BreakableText text={row.Name || '(file)'} />
                                </TableCell>
                                <TableCell className={mergeClasses(styles.cell, styles.value)}>
                                  <BackupValue value={row.BackupValue} />
                                </TableCell>
                                <TableCell className={mergeClasses(styles.cell, styles.value)}>
                                  <BackupValue value={row.CurrentValue} />
                                </TableCell>
                                <TableCell className={styles.cell}>
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
                        ))}
                      </Fragment>
                    ))}
                  </Table>
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

import type { DriftChangeDto, ReviewDeviationDto } from '@aegis/contracts';
import { displayValue, shortenPropertyPath } from '@aegis/domain';
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
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  surface: { maxWidth: '900px', width: '90vw' },
  path: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
  value: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  details: { display: 'flex', flexDirection: 'column', gap: '8px', marginBottom: '12px' },
});

const CHANGE_TEXT = {
  add: { label: 'Added', text: 'This policy is new in the capture: it is not on main.' },
  edit: { label: 'Modified', text: 'This policy changed since the last merge to main.' },
  delete: { label: 'Deleted', text: 'This policy is on main but no longer in the capture.' },
} as const;

export type PolicyDetail =
  { mode: 'drift'; change: DriftChangeDto } | { mode: 'deviation'; deviation: ReviewDeviationDto };

/** Policy detail modal, drift mode (spec 3 §2): file change details and property changes. */
export function PolicyDetailDialog({
  detail,
  onClose,
}: {
  detail: PolicyDetail | undefined;
  onClose: () => void;
}) {
  const styles = useStyles();
  const path = detail?.mode === 'drift' ? detail.change.item.path : detail?.deviation.path;
  return (
    <Dialog open={detail !== undefined} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Policy Details</DialogTitle>
          <DialogContent tabIndex={0}>
            <div className={styles.details}>
              <Text className={styles.path}>{path}</Text>
              {detail?.mode === 'drift' && (
                <>
                  <div>
                    <Badge appearance="tint">{CHANGE_TEXT[detail.change.changeType].label}</Badge>
                  </div>
                  <Text>{CHANGE_TEXT[detail.change.changeType].text}</Text>
                </>
              )}
              {detail?.mode === 'deviation' && (
                <div>
                  <Badge appearance="tint">{detail.deviation.severity}</Badge>{' '}
                  <Text>
                    {detail.deviation.isMissing
                      ? 'This baseline policy is missing from the capture.'
                      : `${detail.deviation.propertyCount} properties differ from the company baseline.`}
                  </Text>
                </div>
              )}
            </div>
            {detail?.mode === 'drift' && detail.change.changeType === 'edit' && (
              <>
                <Text as="h3" weight="semibold">
                  Property Changes ({detail.change.propertyChangeCount ?? 0})
                </Text>
                {(detail.change.propertyChanges ?? []).length === 0 ? (
                  <Text block>No property changes could be read for this file.</Text>
                ) : (
                  <Table size="small" aria-label="Property changes">
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell>Property</TableHeaderCell>
                        <TableHeaderCell>Change</TableHeaderCell>
                        <TableHeaderCell>Previous Value</TableHeaderCell>
                        <TableHeaderCell>Current Value</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {(detail.change.propertyChanges ?? []).map((p, i) => (
                        <TableRow key={`${p.property}-${i}`}>
                          <TableCell className={styles.value}>
                            {shortenPropertyPath(p.property)}
                          </TableCell>
                          <TableCell>{p.changeType}</TableCell>
                          <TableCell className={styles.value}>{displayValue(p.oldValue)}</TableCell>
                          <TableCell className={styles.value}>{displayValue(p.newValue)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </>
            )}
            {detail?.mode === 'deviation' && detail.deviation.deviations.length > 0 && (
              <Table size="small" aria-label="Deviations from the baseline">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>Property</TableHeaderCell>
                    <TableHeaderCell>Severity</TableHeaderCell>
                    <TableHeaderCell>Baseline Value</TableHeaderCell>
                    <TableHeaderCell>Capture Value</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {detail.deviation.deviations.map((p, i) => (
                    <TableRow key={`${p.property}-${i}`}>
                      <TableCell className={styles.value}>
                        {shortenPropertyPath(p.property)}
                      </TableCell>
                      <TableCell>{p.severity}</TableCell>
                      <TableCell className={styles.value}>
                        {displayValue(p.baselineValue)}
                      </TableCell>
                      <TableCell className={styles.value}>{displayValue(p.clientValue)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
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

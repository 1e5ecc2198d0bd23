import type { AcceptDeviationsBody } from '@aegis/contracts';
import {
  ACCEPT_FAILED_MESSAGE,
  ACCEPTANCE_FLAG_LABELS,
  COPY_RESET_MS,
  displayValue,
  latestAcceptanceExpiry,
  shortenPropertyPath,
  type DeviationSummary,
  type PropertyDeviation,
} from '@aegis/domain';
import {
  Badge,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';

import { RoleGate } from '../../../components/role-gate';
import { useAcceptDeviations } from '../api/compliance-api';
import type { ComplianceViewFlow } from '../hooks/use-compliance-view-flow';

import { SEVERITY_LABELS, SeverityIcon } from './severity';

const useStyles = makeStyles({
  surface: { maxWidth: '960px', width: '95vw' },
  content: { display: 'flex', flexDirection: 'column', gap: '12px' },
  meta: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  selectRow: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '8px' },
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    maxHeight: '45vh',
    overflowY: 'auto',
  },
  row: {
    display: 'grid',
    gridTemplateColumns: 'auto minmax(0, 1fr)',
    gap: '8px',
    padding: '8px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  rowHead: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  values: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '8px', marginTop: '6px' },
  value: {
    textAlign: 'left',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
    justifyContent: 'flex-start',
    minHeight: '32px',
  },
  audit: { display: 'grid', gridTemplateColumns: '2fr 1fr', gap: '12px' },
});

function fullText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A value that copies itself on click; the indicator resets after 2 s (spec 3 §9). */
function CopyValue({ label, value }: { label: string; value: unknown }) {
  const styles = useStyles();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(fullText(value));
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_RESET_MS);
    } catch (error) {
      console.error('Could not copy the value', error);
    }
  };
  return (
    <Field label={label} size="small">
      <Button
        className={styles.value}
        appearance="outline"
        title={`${fullText(value)}\n(click to copy)`}
        aria-label={`${label}: ${displayValue(value)}. Copy`}
        onClick={() => void copy()}
      >
        {copied ? 'Copied!' : displayValue(value)}
      </Button>
    </Field>
  );
}

function DeviationRow({
  deviation,
  checked,
  onChange,
}: {
  deviation: PropertyDeviation;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const styles = useStyles();
  const flag = deviation.acceptance;
  return (
    <div className={styles.row}>
      <Checkbox
        checked={checked}
        onChange={(_e, data) => onChange(Boolean(data.checked))}
        aria-label={`Select ${deviation.property}`}
      />
      <div>
        <div className={styles.rowHead}>
          <SeverityIcon severity={deviation.severity} />
          <Text weight="semibold" title={deviation.property}>
            {shortenPropertyPath(deviation.property)}
          </Text>
          <Badge appearance="tint">{SEVERITY_LABELS[deviation.severity]}</Badge>
          {flag && (
            <Badge appearance="filled" color="warning">
              {ACCEPTANCE_FLAG_LABELS[flag.status]}
            </Badge>
          )}
        </div>
        {flag && (
          <Text size={200} block>
            Accepted by {flag.acceptedBy} on {new Date(flag.acceptedAt).toLocaleDateString('en-GB')}
            {flag.expiresAt ? `, until ${flag.expiresAt}` : ''}
            {flag.status === 'valueChanged' && 'acceptedValue' in flag
              ? `; accepted value ${displayValue(flag.acceptedValue)}`
              : ''}
            {flag.reason ? ` (${flag.reason})` : ''}
          </Text>
        )}
        <div className={styles.values}>
          <CopyValue label="Baseline value" value={deviation.baselineValue} />
          <CopyValue label="Client value" value={deviation.clientValue} />
        </div>
      </div>
    </div>
  );
}

/**
 * Policy detail modal in compliance mode (spec 3 §2, §5): deviations with checkboxes (all preselected),
 * select-all, 'N of M selected', values side by side; the missing-policy and prerequisite displays; who/why/until
 * when of an acceptance (ADR 028).
 */
export function PolicyDetailDialog({
  flow,
  group,
  error,
  onClose,
  onPromote,
}: {
  flow: ComplianceViewFlow;
  group: DeviationSummary;
  error?: string;
  onClose: () => void;
  /** promote the client's version into the baseline (issue 30 §1); absent where it cannot be */
  onPromote?: () => void;
}) {
  const { dispatch, toast } = flow;
  const acceptance = useAcceptDeviations(flow.client);
  const busy = acceptance.isPending;
  const onAccept = (body: AcceptDeviationsBody) => {
    dispatch({ type: 'accepting' });
    acceptance.mutate(body, {
      onSuccess: (result) => {
        dispatch({ type: 'closeDialog' });
        toast('pending' in result ? 'warning' : 'success', result.message);
      },
      onError: () => {
        dispatch({ type: 'acceptFailed', message: ACCEPT_FAILED_MESSAGE });
        toast('error', ACCEPT_FAILED_MESSAGE);
      },
    });
  };
  const styles = useStyles();
  const all = group.deviations;
  const [selected, setSelected] = useState<Set<number>>(() => new Set(all.map((_d, i) => i)));
  const [reason, setReason] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const latest = latestAcceptanceExpiry(now);
  const reasonGiven = reason.trim().length > 0;
  const missing = group.isMissing && !group.isPrerequisite;
  const prerequisite = group.isPrerequisite;
  const special = group.isMissing || prerequisite;
  const count = special ? all.length : selected.size;

  const accept = () => {
    const properties = special
      ? all.map((d) => d.property)
      : all.filter((_d, i) => selected.has(i)).map((d) => d.property);
    onAccept({
      path: group.path,
      ...(group.clientPath ? { clientPath: group.clientPath } : {}),
      policyName: group.policyName,
      category: group.category,
      properties,
      reason: reason.trim(),
      ...(expiresAt ? { expiresAt } : {}),
    });
  };
  const acceptLabel =
    selected.size === all.length
      ? `Accept All (${selected.size}) Deviation(s)`
      : `Accept Selected (${selected.size}) Deviation(s)`;

  return (
    <Dialog open onOpenChange={(_e, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{group.policyName}</DialogTitle>
          <DialogContent className={styles.content}>
            <Text className={styles.meta}>
              {group.category} · {group.path}
              {group.clientPath ? ` (client policy ${group.clientPath})` : ''}
            </Text>
            {error && (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            {missing && (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>
                  <MessageBarTitle>Policy Missing from Client Configuration</MessageBarTitle>
                  This baseline policy does not exist in the client&apos;s configuration.
                </MessageBarBody>
              </MessageBar>
            )}
            {prerequisite && (
              <MessageBar intent="info" layout="multiline">
                <MessageBarBody>
                  <MessageBarTitle>Baseline Prerequisite Policy</MessageBarTitle>
                  Priority: High. Type:{' '}
                  {group.deviations[0]?.policyType === 'conditionalAccess' || !group.deviations[0]
                    ? 'Conditional Access'
                    : group.deviations[0].policyType}
                  .
                </MessageBarBody>
              </MessageBar>
            )}
            {!special && (
              <>
                <div className={styles.selectRow}>
                  <Checkbox
                    label="Select all"
                    checked={
                      selected.size === all.length ? true : selected.size === 0 ? false : 'mixed'
                    }
                    onChange={(_e, data) =>
                      setSelected(data.checked ? new Set(all.map((_d, i) => i)) : new Set())
                    }
                  />
                  <Text>
                    {selected.size} of {all.length} selected
                  </Text>
                </div>
                <div className={styles.list} role="group" aria-label="Deviations">
                  {all.map((d, i) => (
                    <DeviationRow
                      key={`${d.property}-${i}`}
                      deviation={d}
                      checked={selected.has(i)}
                      onChange={(checked) =>
                        setSelected((s) => {
                          const next = new Set(s);
                          if (checked) next.add(i);
                          else next.delete(i);
                          return next;
                        })
                      }
                    />
                  ))}
                </div>
              </>
            )}
            <div className={styles.audit}>
              <Field
                label="Reason"
                required
                hint="An auditor reads it: who agreed, and why the deviation is acceptable."
              >
                <Textarea
                  value={reason}
                  rows={2}
                  maxLength={2000}
                  onChange={(_e, data) => setReason(data.value)}
                />
              </Field>
              <Field
                label="Accepted until (optional)"
                hint={`Flagged again after this day; at most a year, ${latest} when left empty.`}
              >
                <Input
                  type="date"
                  min={today}
                  max={latest}
                  value={expiresAt}
                  onChange={(_e, data) => setExpiresAt(data.value)}
                />
              </Field>
            </div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
            {onPromote && !group.isMissing && (
              <RoleGate needs="Operator">
                <Button onClick={onPromote}>Promote into the baseline</Button>
              </RoleGate>
            )}
            {prerequisite && (
              <RoleGate needs="Approver">
                <Button appearance="primary" disabled={busy || !reasonGiven} onClick={accept}>
                  Acknowledge Prerequisite
                </Button>
              </RoleGate>
            )}
            {missing && (
              <RoleGate needs="Approver">
                <Button appearance="primary" disabled={busy || !reasonGiven} onClick={accept}>
                  Acknowledge Missing Policy
                </Button>
              </RoleGate>
            )}
            {!special && (
              <RoleGate needs="Approver">
                <Button
                  appearance="primary"
                  disabled={busy || count === 0 || !reasonGiven}
                  icon={busy ? <Spinner size="tiny" /> : undefined}
                  onClick={accept}
                >
                  {acceptLabel}
                </Button>
              </RoleGate>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

import { usePromote, usePromotionPreview } from '../api/promotion-api';

const useStyles = makeStyles({
  surface: { maxWidth: '880px', width: '95vw' },
  content: { display: 'flex', flexDirection: 'column', gap: '12px' },
  mono: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
});

const COMPANY = '';

/**
 * Promote the client's version of a policy into the company baseline or a layer (issue 30 §1,
 * ADR 073): the tenant's values that equal its parameters become the parameters' names, shown
 * before the technician proposes it as a pull request.
 */
export function PromoteDialog({
  client,
  path,
  layers,
  onClose,
}: {
  client: string;
  /** resource path of the client's policy */
  path: string;
  /** the layers the client uses, offered as targets besides the company baseline */
  layers: readonly string[];
  onClose: () => void;
}) {
  const styles = useStyles();
  const [target, setTarget] = useState(COMPANY);
  const [reason, setReason] = useState('');
  const layer = target === COMPANY ? undefined : target;
  const preview = usePromotionPreview(client, path, layer);
  const promote = usePromote(client);
  const where = layer ? `the '${layer}' layer` : 'the company baseline';

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Promote into the baseline</DialogTitle>
          <DialogContent className={styles.content}>
            <Text>
              {`${client}'s version of `}
              <span className={styles.mono}>{path}</span>
              {` becomes ${where}'s, through a pull request that someone else approves.`}
            </Text>
            <Field label="Promote into">
              <Dropdown
                value={layer ? `Layer: ${layer}` : 'The company baseline'}
                selectedOptions={[target]}
                disabled={promote.isSuccess}
                onOptionSelect={(_, data) => setTarget(data.optionValue ?? COMPANY)}
              >
                <Option value={COMPANY}>The company baseline</Option>
                {layers.map((l) => (
                  <Option key={l} value={l}>{`Layer: ${l}`}</Option>
                ))}
              </Dropdown>
            </Field>
            {preview.isPending && <Spinner label="Reading the policy..." />}
            {preview.isError && (
              <MessageBar intent="error">
                <MessageBarBody>
                  <MessageBarTitle>The promotion cannot be prepared.</MessageBarTitle>
                  {preview.error.message}
                </MessageBarBody>
              </MessageBar>
            )}
            {preview.data && (
              <>
                <Text>
                  {preview.data.replaces
                    ? `It replaces the policy at ${preview.data.targetPath} whole.`
                    : `It adds ${preview.data.targetPath}.`}
                </Text>
                {preview.data.substitutions.length === 0 ? (
                  <Text>
                    No value of the policy equals one of {client}&apos;s parameters: it is promoted
                    as captured.
                  </Text>
                ) : (
                  <Table aria-label="Values replaced by parameters" size="small">
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell>Property</TableHeaderCell>
                        <TableHeaderCell>{`${client}'s value`}</TableHeaderCell>
                        <TableHeaderCell>Becomes</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {preview.data.substitutions.map((s) => (
                        <TableRow key={s.path}>
                          <TableCell className={styles.mono}>{s.path}</TableCell>
                          <TableCell className={styles.mono}>{s.value}</TableCell>
                          <TableCell
                            className={styles.mono}
                          >{`{{aegis:param:${s.name}}}`}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
                <Field label="Reason (for the reviewer)">
                  <Textarea
                    value={reason}
                    disabled={promote.isSuccess}
                    onChange={(_, data) => setReason(data.value)}
                  />
                </Field>
              </>
            )}
            {promote.isError && (
              <MessageBar intent="error">
                <MessageBarBody>
                  <MessageBarTitle>The promotion could not be proposed.</MessageBarTitle>
                  {promote.error.message}
                </MessageBarBody>
              </MessageBar>
            )}
            {promote.isSuccess && (
              <MessageBar intent="success">
                <MessageBarBody>
                  <MessageBarTitle>{`Proposed as pull request #${promote.data.pullRequestId}.`}</MessageBarTitle>
                  It takes effect on main when someone else approves it.{' '}
                  <Link href={promote.data.prUrl} target="_blank" rel="noreferrer">
                    Open the pull request
                  </Link>
                </MessageBarBody>
              </MessageBar>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{promote.isSuccess ? 'Close' : 'Cancel'}</Button>
            {!promote.isSuccess && (
              <Button
                appearance="primary"
                disabled={!preview.data || promote.isPending}
                onClick={() =>
                  promote.mutate({
                    path,
                    ...(layer ? { layer } : {}),
                    ...(reason.trim() ? { reason: reason.trim() } : {}),
                  })
                }
              >
                {promote.isPending ? 'Proposing...' : 'Propose promotion'}
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

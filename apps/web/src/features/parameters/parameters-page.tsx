import type {
  ClientParametersDto,
  ParameterUseDto,
  ProposedSettingsChangeDto,
} from '@aegis/contracts';
import { formatCaptureDate, isClientCode, type ParameterValue } from '@aegis/domain';
import {
  Badge,
  Button,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowClockwiseRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';

import { useConfirm } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';

import { useClientParameters, useProposeLayers, useProposeParameters } from './api/parameters-api';
import { DroppedLayers } from './components/dropped-layers';
import { LayersEditor } from './components/layers-editor';
import { ParameterDialog } from './components/parameter-dialog';
import { PolicyPath } from './components/policy-path';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '16px' },
  links: { display: 'flex', gap: '16px', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
  value: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
  uses: { margin: 0, paddingLeft: '16px' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  list: { margin: 0, paddingLeft: '16px' },
});

const shown = (value: ParameterValue) =>
  typeof value === 'string' ? value : JSON.stringify(value);

function Uses({ usedBy }: { usedBy: readonly ParameterUseDto[] }) {
  const styles = useStyles();
  if (usedBy.length === 0) return <Text className={styles.meta}>Not used by the baseline</Text>;
  return (
    <ul className={styles.uses}>
      {usedBy.map((u) => (
        <li key={u.path}>
          <PolicyPath path={u.path} />{' '}
          <Badge appearance="tint" color={u.layer ? 'brand' : 'informative'}>
            {u.layer ? `Layer: ${u.layer}` : 'Company'}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

function Proposed({ change }: { change: ProposedSettingsChangeDto }) {
  return (
    <MessageBar intent="success">
      <MessageBarBody>
        <MessageBarTitle>{`Proposed as pull request #${change.pullRequestId}.`}</MessageBarTitle>
        It takes effect on main when someone else approves it.{' '}
        <Link href={change.prUrl} target="_blank" rel="noreferrer">
          Open the pull request
        </Link>
      </MessageBarBody>
    </MessageBar>
  );
}

type Editing = { name: string; value?: ParameterValue };

function ParametersContent({ client, data }: { client: string; data: ClientParametersDto }) {
  const styles = useStyles();
  const confirm = useConfirm();
  const propose = useProposeParameters(client);
  const proposeLayers = useProposeLayers(client);
  const [editing, setEditing] = useState<Editing | undefined>();
  const names = data.parameters.map((p) => p.name);

  const open = (next: Editing) => {
    propose.reset();
    setEditing(next);
  };
  const remove = async (name: string, used: number) => {
    const ok = await confirm({
      title: `Remove '${name}'?`,
      body:
        used > 0
          ? `The baseline uses '${name}' in ${used} ${used === 1 ? 'policy' : 'policies'}: deploys of ${client} will refuse until it is set again. The removal is proposed as a pull request.`
          : `No policy uses '${name}'. The removal is proposed as a pull request.`,
      confirmLabel: 'Propose removal',
      destructive: true,
    });
    if (ok) propose.mutate({ remove: [name] });
  };

  return (
    <>
      {data.pending.length > 0 && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Waiting for approval</MessageBarTitle>
            <ul className={styles.list}>
              {data.pending.map((pr) => (
                <li key={pr.pullRequestId}>
                  <Link href={pr.prUrl} target="_blank" rel="noreferrer">
                    {`#${pr.pullRequestId} ${pr.title}`}
                  </Link>
                  {` by ${pr.createdBy}, ${formatCaptureDate(pr.creationDate)}`}
                </li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      {!editing && propose.isSuccess && <Proposed change={propose.data} />}
      {!editing && propose.isError && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>The change could not be proposed.</MessageBarTitle>
            {propose.error.message}
          </MessageBarBody>
        </MessageBar>
      )}
      {data.missing.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{`The baseline needs parameters ${client} has no value for`}</MessageBarTitle>
            Deploys of {client} refuse until they are set.
            <ul className={styles.list}>
              {data.missing.map((m) => (
                <li key={m.name}>
                  <Text weight="semibold">{m.name}</Text>
                  {`, used by ${m.usedBy.map((u) => u.path).join(', ')} `}
                  <RoleGate needs="Operator">
                    <Button size="small" onClick={() => open({ name: m.name })}>
                      {`Set ${m.name}`}
                    </Button>
                  </RoleGate>
                </li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      <section aria-labelledby="parameters-heading" className={styles.root}>
        <div className={styles.actions}>
          <Text as="h2" id="parameters-heading" size={500} weight="semibold">
            Parameters
          </Text>
          <RoleGate needs="Operator">
            <Button icon={<AddRegular />} onClick={() => open({ name: '' })}>
              Add parameter
            </Button>
          </RoleGate>
        </div>
        {data.parameters.length === 0 ? (
          <Text>{`${client} has no parameters.`}</Text>
        ) : (
          <Table aria-label="Parameters">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Value</TableHeaderCell>
                <TableHeaderCell>Used by</TableHeaderCell>
                <TableHeaderCell>Actions</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.parameters.map((p) => (
                <TableRow key={p.name}>
                  <TableCell>
                    <Text weight="semibold">{p.name}</Text>
                  </TableCell>
                  <TableCell>
                    <span className={styles.value}>{shown(p.value)}</span>
                  </TableCell>
                  <TableCell>
                    <Uses usedBy={p.usedBy} />
                  </TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      <RoleGate needs="Operator">
                        <Button
                          size="small"
                          aria-label={`Change ${p.name}`}
                          onClick={() => open({ name: p.name, value: p.value })}
                        >
                          Change
                        </Button>
                      </RoleGate>
                      <RoleGate needs="Operator">
                        <Button
                          size="small"
                          aria-label={`Remove ${p.name}`}
                          disabled={propose.isPending}
                          onClick={() => void remove(p.name, p.usedBy.length)}
                        >
                          Remove
                        </Button>
                      </RoleGate>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
      {proposeLayers.isSuccess && <Proposed change={proposeLayers.data} />}
      {proposeLayers.isError && (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>The layers could not be proposed.</MessageBarTitle>
            {proposeLayers.error.message}
          </MessageBarBody>
        </MessageBar>
      )}
      <LayersEditor
        key={data.layers.join('\n')}
        layers={data.layers}
        available={data.availableLayers}
        pending={proposeLayers.isPending}
        onPropose={(body) => proposeLayers.mutate(body)}
      />
      <DroppedLayers client={client} dropped={data.droppedLayers} />
      {editing && (
        <ParameterDialog
          editing={editing.name ? editing : undefined}
          existing={names}
          pending={propose.isPending}
          {...(propose.isError ? { error: propose.error.message } : {})}
          onClose={() => setEditing(undefined)}
          onSubmit={(body) => propose.mutate(body, { onSuccess: () => setEditing(undefined) })}
        />
      )}
    </>
  );
}

/**
 * /fleet/:clientCode/parameters (issue 30 §1–2, ADR 073): the client's tenant parameters, where its
 * effective baseline uses each, the ones it lacks, and its layers; changes are pull requests.
 */
export function ParametersPage() {
  const styles = useStyles();
  const client = (useParams().clientCode ?? '').toUpperCase();
  const valid = isClientCode(client);
  const parameters = useClientParameters(client, valid);
  if (!valid) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{`'${client}' is not a client code (three capital letters).`}</MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <div className={styles.root}>
      <PageHeader
        title={`Parameters of ${client}`}
        subtitle="Tenant-specific values the baseline names as {{aegis:param:NAME}}, and the client's baseline layers. A change is a pull request that someone else approves."
        actions={
          <Button
            icon={<ArrowClockwiseRegular />}
            onClick={() => void parameters.refetch()}
            disabled={parameters.isFetching}
          >
            Refresh
          </Button>
        }
      />
      <nav className={styles.links} aria-label="The client's other pages">
        <RouterLink to={paths.fleet.getHref()}>Back to the Fleet</RouterLink>
        <RouterLink to={paths.captureManagement.getHref(client)}>
          Captures and baseline compliance
        </RouterLink>
      </nav>
      {parameters.isPending && <Spinner label="Loading the parameters..." />}
      {parameters.isError && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Failed to load the parameters.</MessageBarTitle>
            {parameters.error.message}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void parameters.refetch()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {parameters.data && <ParametersContent client={client} data={parameters.data} />}
    </div>
  );
}

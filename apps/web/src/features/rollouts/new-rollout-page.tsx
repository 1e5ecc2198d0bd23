import type { RolloutCapture, RolloutPlanDto } from '@aegis/contracts';
import { countOf, formatCaptureDate } from '@aegis/domain';
import {
  Badge,
  Button,
  Checkbox,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
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
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';

import { PageHeader } from '../../components/page-header';
import { ResultBar } from '../../components/result-bar';
import { RoleGate } from '../../components/role-gate';
import { paths } from '../../config/paths';
import { useClients } from '../../lib/clients/use-clients';

import { useBaselineCommits, useCreateRollout, usePlan, useStartPlan } from './api/rollouts-api';
import { UnreadWorkloadList } from './unread-workloads';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '20px' },
  section: { display: 'flex', flexDirection: 'column', gap: '8px' },
  clients: { display: 'flex', flexWrap: 'wrap', gap: '4px 16px' },
  rings: { display: 'flex', flexWrap: 'wrap', gap: '16px' },
  ring: {
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    padding: '12px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minWidth: '220px',
  },
  meta: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  // a commit's subject can be long: the picker fits the page and the option text is cut, rather
  // than the picker widening the page past a 1024-pixel screen
  picker: { minWidth: 0, maxWidth: '100%' },
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const PLAN_STATUS = {
  capturing: 'Reading the tenant…',
  planned: 'Planned',
  failed: 'The capture failed: no plan',
} as const;

interface RingSettings {
  /** empty: the default (no failure in ring 1, a tenth of the ring after) */
  maxFailures: string;
  needsApproval: boolean;
}

const RING_COUNT_MAX = 5;

function PlanTable({ plan }: { plan: RolloutPlanDto }) {
  return (
    <Table aria-label="Plan per tenant">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Tenant</TableHeaderCell>
          <TableHeaderCell>Fresh read</TableHeaderCell>
          <TableHeaderCell>To create</TableHeaderCell>
          <TableHeaderCell>To change</TableHeaderCell>
          <TableHeaderCell>To delete</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {plan.tenants.map((t) => (
          <TableRow key={t.client}>
            <TableCell>{t.client}</TableCell>
            <TableCell>
              {PLAN_STATUS[t.status]}{' '}
              {t.plan?.unread?.length ? (
                <Badge appearance="tint" color="warning">
                  {`${countOf(t.plan.unread.length, 'workload')} not read`}
                </Badge>
              ) : null}
            </TableCell>
            <TableCell>{t.plan?.creates ?? '—'}</TableCell>
            <TableCell>
              {t.plan ? (
                <span title={(t.plan.policies ?? []).join('\n')}>{t.plan.updates}</span>
              ) : (
                '—'
              )}
            </TableCell>
            <TableCell>{t.plan?.deletes ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** ADR 087: the tenants whose fresh read missed a workload, said before the rings are set. */
function UnreadNotice({ plan }: { plan: RolloutPlanDto }) {
  const flagged = plan.tenants.filter((t) => t.plan?.unread?.length);
  if (flagged.length === 0) return null;
  return (
    <MessageBar intent="warning" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>The plan could not read some workloads</MessageBarTitle>
        {`Their counts assume the tenant has none of their baseline policies. Before the rollout starts, an Approver acknowledges or excludes each of ${flagged.map((t) => t.client).join(', ')} on the rollout's page.`}
        {flagged.map((t) => (
          <div key={t.client}>
            <Text weight="semibold">{t.client}</Text>
            <UnreadWorkloadList unread={t.plan?.unread} />
          </div>
        ))}
      </MessageBarBody>
    </MessageBar>
  );
}

/**
 * A new rollout (issue 30 §3): the target clients, their plan from a fresh capture of each tenant,
 * the rings with their thresholds and go-ahead, then the rollout (started from its own page).
 */
export function NewRolloutPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const clients = useClients();
  // planning a halted rollout again starts from its clients (`?clients=NWT,CON`)
  const [searchParams] = useSearchParams();
  const [chosen, setChosen] = useState<string[]>(
    () => searchParams.get('clients')?.split(',').filter(Boolean) ?? [],
  );
  const [captures, setCaptures] = useState<RolloutCapture[]>();
  const [ringCount, setRingCount] = useState(2);
  const [ringOf, setRingOf] = useState<Record<string, number>>({});
  const [settings, setSettings] = useState<RingSettings[]>(
    Array.from({ length: RING_COUNT_MAX }, () => ({ maxFailures: '', needsApproval: false })),
  );
  const commits = useBaselineCommits();
  const [commitChoice, setCommitChoice] = useState<string>();
  const newest = commits.data?.commits[0]?.commitId;
  // The newest baseline commit is main's tip as far as the baseline goes: it is planned as main
  // (the clients' parameters as they are now); only an earlier commit is sent.
  const commit = commitChoice !== newest ? commitChoice : undefined;
  const startPlan = useStartPlan();
  const plan = usePlan(captures, commit);
  const create = useCreateRollout();

  const candidates = (clients.data?.clients ?? []).filter((c) => c.isClient && c.configuration);
  const targets = chosen.filter((code) => candidates.some((c) => c.code === code));
  const planned = plan.data?.tenants ?? [];
  const withWork = planned.filter(
    (t) => t.plan && t.plan.creates + t.plan.updates + t.plan.deletes > 0,
  );
  const nothingToDo = planned.filter(
    (t) => t.plan && t.plan.creates + t.plan.updates + t.plan.deletes === 0,
  );
  const ready = planned.length > 0 && planned.every((t) => t.status === 'planned');
  // a tenant with work goes to ring 1 unless moved
  const ringIndex = (client: string) => Math.min(ringOf[client] ?? 0, ringCount - 1);

  const submit = () => {
    if (!captures) return;
    const rings = Array.from({ length: ringCount }, (_, index) => {
      const s = settings[index]!;
      return {
        name: `Ring ${index + 1}`,
        clients: withWork.filter((t) => ringIndex(t.client) === index).map((t) => t.client),
        ...(s.maxFailures.trim() !== '' ? { maxFailures: Number(s.maxFailures) } : {}),
        ...(index > 0 ? { needsApproval: s.needsApproval } : {}),
      };
    }).filter((r) => r.clients.length > 0);
    create.mutate(
      { captures, rings, ...(commit ? { commitId: commit } : {}) },
      { onSuccess: (rollout) => void navigate(paths.rollout.getHref(rollout.id)) },
    );
  };

  return (
    <div className={styles.root}>
      <PageHeader
        title="New rollout"
        subtitle="Plan the baseline on main for chosen clients, then deploy it ring by ring"
        actions={<RouterLink to={paths.rollouts.getHref()}>All rollouts</RouterLink>}
      />
      <section className={styles.section} aria-labelledby="rollout-clients">
        <h2 id="rollout-clients">1. Baseline commit and clients</h2>
        {commits.isPending ? (
          <Spinner label="Loading the baseline commits..." />
        ) : commits.isError ? (
          <ResultBar intent="error" title="The baseline commits could not be loaded">
            {message(commits.error)}
          </ResultBar>
        ) : (
          <Field
            className={styles.picker}
            label="Baseline commit"
            hint="Commits of main that changed the company baseline or a layer, newest first."
          >
            <Select
              className={styles.picker}
              value={commitChoice ?? newest ?? ''}
              disabled={captures !== undefined}
              onChange={(_e, data) => setCommitChoice(data.value)}
            >
              {commits.data.commits.map((c) => (
                <option key={c.commitId} value={c.commitId}>
                  {`${c.subject} · ${c.author} · ${formatCaptureDate(c.date)} · ${c.commitId.slice(0, 8)}`}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {clients.isPending ? (
          <Spinner label="Loading the clients..." />
        ) : clients.isError ? (
          <ResultBar intent="error">{message(clients.error)}</ResultBar>
        ) : candidates.length === 0 ? (
          <Text>No client has a configuration on main yet.</Text>
        ) : (
          <div className={styles.clients} role="group" aria-label="Target clients">
            {candidates.map((c) => (
              <Checkbox
                key={c.code}
                label={`${c.code} · ${c.name}`}
                checked={chosen.includes(c.code)}
                disabled={captures !== undefined}
                onChange={(_e, data) =>
                  setChosen((now) =>
                    data.checked ? [...now, c.code] : now.filter((code) => code !== c.code),
                  )
                }
              />
            ))}
          </div>
        )}
        <div className={styles.actions}>
          <RoleGate needs="Approver">
            <Button
              appearance="primary"
              disabled={targets.length === 0 || startPlan.isPending || captures !== undefined}
              onClick={() =>
                startPlan.mutate(targets, { onSuccess: (started) => setCaptures(started.captures) })
              }
            >
              {startPlan.isPending ? 'Starting the captures…' : 'Plan'}
            </Button>
          </RoleGate>
          {captures ? (
            <Button onClick={() => setCaptures(undefined)}>Change the clients</Button>
          ) : null}
          <Text className={styles.meta}>
            The plan reads each tenant afresh (a capture run per client), not the last capture.
          </Text>
        </div>
        {startPlan.isError ? (
          <ResultBar intent="error" title="The plan did not start">
            {message(startPlan.error)}
          </ResultBar>
        ) : null}
      </section>

      {captures ? (
        <section className={styles.section} aria-labelledby="rollout-plan">
          <h2 id="rollout-plan">2. Plan</h2>
          {plan.isPending ? (
            <Spinner label="Reading the plan..." />
          ) : plan.isError ? (
            <ResultBar intent="error" title="The plan could not be read">
              {message(plan.error)}
            </ResultBar>
          ) : (
            <>
              <PlanTable plan={plan.data} />
              <UnreadNotice plan={plan.data} />
              {!ready ? (
                <Text role="status">Waiting for every tenant to be read…</Text>
              ) : (
                <Text>
                  {nothingToDo.length === 0
                    ? 'Every tenant has something to deploy.'
                    : `Nothing to do in ${nothingToDo.map((t) => t.client).join(', ')}: listed apart, in no ring.`}
                </Text>
              )}
            </>
          )}
        </section>
      ) : null}

      {captures && ready ? (
        <section className={styles.section} aria-labelledby="rollout-rings">
          <h2 id="rollout-rings">3. Rings</h2>
          <div className={styles.actions}>
            <Field label="Number of rings">
              <Select
                value={String(ringCount)}
                onChange={(_e, data) => setRingCount(Number(data.value))}
              >
                {Array.from({ length: RING_COUNT_MAX }, (_, i) => (
                  <option key={i} value={i + 1}>
                    {i + 1}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {withWork.length > 0 ? (
            <Table aria-label="Ring of each tenant">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Tenant</TableHeaderCell>
                  <TableHeaderCell>Ring</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {withWork.map((t) => (
                  <TableRow key={t.client}>
                    <TableCell>{t.client}</TableCell>
                    <TableCell>
                      <Select
                        aria-label={`Ring of ${t.client}`}
                        value={String(ringIndex(t.client))}
                        onChange={(_e, data) =>
                          setRingOf((now) => ({ ...now, [t.client]: Number(data.value) }))
                        }
                      >
                        {Array.from({ length: ringCount }, (_, i) => (
                          <option key={i} value={i}>{`Ring ${i + 1}`}</option>
                        ))}
                      </Select>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : null}
          <div className={styles.rings}>
            {Array.from({ length: ringCount }, (_, index) => (
              <div
                key={index}
                className={styles.ring}
                role="group"
                aria-label={`Ring ${index + 1}`}
              >
                <Text weight="semibold">{`Ring ${index + 1}`}</Text>
                <Field
                  label="Failures tolerated"
                  hint={
                    index === 0 ? 'Default 0: any failure halts.' : 'Default: a tenth of the ring.'
                  }
                >
                  <Input
                    type="number"
                    min={0}
                    value={settings[index]!.maxFailures}
                    onChange={(_e, data) =>
                      setSettings((now) =>
                        now.map((s, i) => (i === index ? { ...s, maxFailures: data.value } : s)),
                      )
                    }
                  />
                </Field>
                {index > 0 ? (
                  <Checkbox
                    label="Waits for an Approver's go-ahead"
                    checked={settings[index]!.needsApproval}
                    onChange={(_e, data) =>
                      setSettings((now) =>
                        now.map((s, i) =>
                          i === index ? { ...s, needsApproval: data.checked === true } : s,
                        ),
                      )
                    }
                  />
                ) : null}
              </div>
            ))}
          </div>
          <div className={styles.actions}>
            <RoleGate needs="Approver">
              <Button
                appearance="primary"
                disabled={create.isPending || withWork.length === 0}
                onClick={submit}
              >
                {create.isPending ? 'Creating…' : 'Create rollout'}
              </Button>
            </RoleGate>
            {withWork.length === 0 ? (
              <Text>Nothing to roll out: every tenant already matches the baseline.</Text>
            ) : null}
          </div>
          {create.isError ? (
            <ResultBar intent="error" title="The rollout was not created">
              {message(create.error)}
            </ResultBar>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

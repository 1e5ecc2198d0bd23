import type { BaselineRunResponse, ClientParametersDto } from '@aegis/contracts';
import { countOf, inNumber, OFFBOARD_RUN_POLLING } from '@aegis/domain';
import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons';
import { useCallback, useState } from 'react';

import { useConfirm } from '../../../components/confirm-dialog';
import { ProjectRunStatus } from '../../../components/pipeline-run-status';
import { ResultBar } from '../../../components/result-bar';
import { RoleGate } from '../../../components/role-gate';
import { useOffboardDroppedLayers } from '../api/parameters-api';

import { PolicyPath } from './policy-path';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px' },
  meta: { color: tokens.colorNeutralForeground3 },
  list: { margin: 0, paddingLeft: '16px' },
  row: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
});

type Dropped = ClientParametersDto['droppedLayers'];

function PolicyList({ policies }: { policies: Dropped }) {
  const styles = useStyles();
  return (
    <ul className={styles.list}>
      {policies.map((p) => (
        <li key={`${p.layer}/${p.path}`}>
          <PolicyPath path={p.path} />
          {` (layer ${p.layer})`}
        </li>
      ))}
    </ul>
  );
}

/**
 * ADR 079: the policies of layers the client no longer has that its tenant still holds (as of its
 * last capture), and the off-board that removes them after a confirmation listing them.
 */
export function DroppedLayers({ client, dropped }: { client: string; dropped: Dropped }) {
  const styles = useStyles();
  const confirm = useConfirm();
  const offboard = useOffboardDroppedLayers(client);
  const [started, setStarted] = useState<BaselineRunResponse | undefined>();
  const [finished, setFinished] = useState(false);
  const onFinished = useCallback(() => setFinished(true), []);
  if (dropped.length === 0 && !started) return null;
  const layers = [...new Set(dropped.map((p) => p.layer))];

  const remove = async () => {
    const ok = await confirm({
      title: `Remove ${countOf(dropped.length, 'policy', 'policies')} from ${client}'s tenant?`,
      body: (
        <>
          <Text>
            {`${inNumber(dropped.length, 'This policy', 'These policies')} came from ${layers.map((l) => `'${l}'`).join(', ')}, which ${client} no longer has, and its baseline no longer holds ${inNumber(dropped.length, 'it', 'them')}. The tenant is backed up first; nothing else is touched.`}
          </Text>
          <PolicyList policies={dropped} />
        </>
      ),
      confirmLabel: 'Remove from the tenant',
      destructive: true,
    });
    if (!ok) return;
    offboard.mutate(
      { layers },
      {
        onSuccess: (run) => {
          setFinished(false);
          setStarted(run);
        },
      },
    );
  };

  return (
    <section aria-labelledby="dropped-layers-heading" className={styles.root}>
      <Text as="h2" id="dropped-layers-heading" size={500} weight="semibold">
        Policies of removed layers
      </Text>
      {dropped.length > 0 ? (
        <>
          <Text className={styles.meta}>
            {`${client} no longer has ${inNumber(layers.length, 'this layer', 'these layers')}, but its last capture still holds ${inNumber(dropped.length, 'a policy', 'policies')} of ${inNumber(layers.length, 'it', 'them')}. Its deploys no longer manage ${inNumber(dropped.length, 'it', 'them')}; the list clears at the first capture after ${inNumber(dropped.length, 'it is', 'they are')} removed.`}
          </Text>
          <PolicyList policies={dropped} />
          <div className={styles.row}>
            <RoleGate needs="Administrator">
              <Button
                icon={<DeleteRegular />}
                disabled={offboard.isPending || (started !== undefined && !finished)}
                onClick={() => void remove()}
              >
                Remove layer policies
              </Button>
            </RoleGate>
            {offboard.isPending && <Spinner size="tiny" label="Starting the off-board..." />}
          </div>
        </>
      ) : (
        <Text className={styles.meta}>
          {`Nothing of a removed layer is left in ${client}'s last capture.`}
        </Text>
      )}
      {offboard.isError && (
        <ResultBar intent="error" title="The off-board could not be started.">
          {offboard.error.message}
        </ResultBar>
      )}
      {started && (
        <ProjectRunStatus
          key={started.id}
          started={started}
          rule={OFFBOARD_RUN_POLLING}
          onFinished={onFinished}
        />
      )}
    </section>
  );
}

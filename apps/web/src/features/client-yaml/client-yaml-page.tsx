import type {
  ClientYaml,
  ClientYamlPreview,
  ClientYamlUpdated,
  PipelineList,
} from '@aegis/contracts';
import { SCHEDULE_MESSAGES } from '@aegis/domain';
import {
  Button,
  Card,
  CardHeader,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { PageHeader } from '../../components/page-header';
import { RoleGate } from '../../components/role-gate';
import { api, ApiError } from '../../lib/api-client';

import { YamlView } from './yaml-view';

const useStyles = makeStyles({
  toolbar: { display: 'flex', gap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
  select: { minWidth: '360px' },
  panel: { marginTop: '16px' },
  added: { color: tokens.colorPaletteGreenForeground1 },
  removed: { color: tokens.colorPaletteRedForeground1 },
  changes: { margin: '4px 0 12px', paddingLeft: '20px' },
});

type Banner = { intent: 'success' | 'error' | 'warning'; text: string };

/** App deployment pipelines (/ViewAppList, spec 2 §2, §5, §7, §8; issue 16 §1). */
export function ClientYamlPage() {
  const styles = useStyles();
  const pipelines = useQuery({
    queryKey: ['pipelines'],
    queryFn: ({ signal }) => api<PipelineList>('/api/pipelines', { signal }),
  });
  const [selected, setSelected] = useState('');
  const [yaml, setYaml] = useState<ClientYaml>();
  const [preview, setPreview] = useState<ClientYamlPreview>();
  const [banner, setBanner] = useState<Banner>();
  const [busy, setBusy] = useState(false);
  const pipeline = pipelines.data?.pipelines.find((p) => `${p.project}/${p.id}` === selected);

  async function run(action: () => Promise<void>, failure: string) {
    if (!pipeline) {
      return setBanner({ intent: 'warning', text: SCHEDULE_MESSAGES.selectPipeline });
    }
    setBusy(true);
    setBanner(undefined);
    try {
      await action();
    } catch (error) {
      const detail = error instanceof ApiError ? error.message : String(error);
      setBanner({ intent: 'error', text: `${failure}: ${detail}` });
    } finally {
      setBusy(false);
    }
  }

  const viewYaml = () =>
    run(async () => {
      setPreview(undefined);
      setYaml(await api<ClientYaml>(`/api/client-yaml/${encodeURIComponent(pipeline!.folder)}`));
    }, SCHEDULE_MESSAGES.yamlContentFailed);

  const previewApps = () =>
    run(async () => {
      let next: ClientYamlPreview;
      try {
        next = await api<ClientYamlPreview>(
          `/api/client-yaml/${encodeURIComponent(pipeline!.folder)}/apps-preview`,
        );
      } catch (error) {
        // 404: the YAML is there but the client has no app table; that is not a YAML fetch error
        if (error instanceof ApiError && error.status === 404) {
          setBanner({ intent: 'warning', text: error.message });
          return;
        }
        throw error;
      }
      setYaml(next);
      setPreview(next);
    }, SCHEDULE_MESSAGES.yamlFetchError);

  const writeApps = () =>
    run(async () => {
      const result = await api<ClientYamlUpdated>(
        `/api/client-yaml/${encodeURIComponent(pipeline!.folder)}/apps`,
        { method: 'POST', body: { commitId: preview!.commitId } },
      );
      setPreview(undefined);
      setYaml(await api<ClientYaml>(`/api/client-yaml/${encodeURIComponent(pipeline!.folder)}`));
      setBanner({ intent: 'success', text: result.message });
    }, 'Failed to update YAML');

  return (
    <>
      <PageHeader
        title="App Deployment Pipelines"
        subtitle="Client YAML files: view them and regenerate their app lists from the app tables"
      />
      <div className={styles.toolbar}>
        <Field label="Pipeline" className={styles.select}>
          <Select
            value={selected}
            onChange={(_event, data) => {
              setSelected(data.value);
              setYaml(undefined);
              setPreview(undefined);
              setBanner(undefined);
            }}
          >
            <option value="">
              {pipelines.isPending ? 'Loading pipelines…' : 'Select a pipeline'}
            </option>
            {(pipelines.data?.pipelines ?? []).map((p) => (
              <option key={`${p.project}/${p.id}`} value={`${p.project}/${p.id}`}>
                {p.name} - {p.folder}
              </option>
            ))}
          </Select>
        </Field>
        <Button appearance="primary" onClick={() => void viewYaml()} disabled={busy}>
          View YAML
        </Button>
        <RoleGate needs="Operator">
          <Button onClick={() => void previewApps()} disabled={busy}>
            Update YAML with Apps
          </Button>
        </RoleGate>
        <Button
          onClick={() => {
            setYaml(undefined);
            setPreview(undefined);
          }}
          disabled={!yaml}
        >
          Close Yaml
        </Button>
        {busy && <Spinner size="tiny" label="Working..." />}
      </div>
      {pipelines.isError && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>Failed to fetch pipelines. Please try again.</MessageBarBody>
        </MessageBar>
      )}
      {banner && (
        <MessageBar
          intent={banner.intent}
          role={banner.intent === 'success' ? 'status' : 'alert'}
          style={{ marginTop: 12 }}
        >
          <MessageBarBody>{banner.text}</MessageBarBody>
        </MessageBar>
      )}
      {preview && (
        <Card className={styles.panel} aria-labelledby="app-changes-title">
          <CardHeader
            header={
              <Text weight="semibold" id="app-changes-title">
                Changes to the app list (from {preview.table}, enabled apps only)
              </Text>
            }
          />
          {preview.changes.added.length + preview.changes.removed.length === 0 ? (
            <Text>The app list already matches the table: nothing to change.</Text>
          ) : (
            <ul className={styles.changes} aria-label="App list changes">
              {preview.changes.added.map((app) => (
                <li key={`+${app}`} className={styles.added}>
                  + {app}
                </li>
              ))}
              {preview.changes.removed.map((app) => (
                <li key={`-${app}`} className={styles.removed}>
                  − {app}
                </li>
              ))}
            </ul>
          )}
          <div className={styles.toolbar}>
            <RoleGate needs="Operator">
              <Button appearance="primary" onClick={() => void writeApps()} disabled={busy}>
                Write to repository
              </Button>
            </RoleGate>
            <Button onClick={() => setPreview(undefined)}>Cancel</Button>
          </div>
        </Card>
      )}
      {yaml && (
        <Card className={styles.panel} aria-labelledby="yaml-title">
          <CardHeader
            header={
              <Text weight="semibold" id="yaml-title">
                App Deploy - Yaml File Contents
              </Text>
            }
            description={<Text size={200}>{yaml.path}</Text>}
          />
          <YamlView
            content={preview ? preview.nextContent : yaml.content}
            label={preview ? `${yaml.path} after the update` : yaml.path}
          />
        </Card>
      )}
    </>
  );
}

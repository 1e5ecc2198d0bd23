// Baseline deployment and off-boarding (spec 2 §2, §7; issue 15): which client a tenant pipeline
// names, the runs of the Aegis folder's deploy and remove pipelines for it, the company baseline's
// files the configuration preview reads, and the preview of what a deploy would do.
import type { DevOpsApi } from '@aegis/connectors/devops';
import {
  readClientBaseline,
  readDroppedLayerPolicies,
  type ConfigRepository,
  type ParsedFile,
} from '@aegis/connectors/repository';
import {
  BASELINE_COMPONENTS,
  InputError,
  NotFoundError,
  OFFBOARD_COMPONENTS,
  RESOURCES_FOLDER,
  isTenantPipelineFolder,
  clientResourcesRoot,
  clientFolder,
  comparePolicy,
  deployComponentsRun,
  droppedLayersOffboardRun,
  fullBaselineDeployRun,
  isClientCode,
  missingParametersMessage,
  normalisePipelineFolder,
  offboardRun,
  pathInsideFolder,
  toResourcePath,
} from '@aegis/domain';

import { PIPELINE_NOT_FOUND_MESSAGE, type PipelineRuns } from './pipeline-runs';

const BASELINE_ROOT = `/${RESOURCES_FOLDER}`;

/**
 * A path inside the company baseline, normalised ('M365Config/Resources/…', no leading slash);
 * InputError naming `path` when it would leave it.
 */
function baselinePath(path: string): string {
  return pathInsideFolder(BASELINE_ROOT, path).slice(1);
}

function unknownNames(
  names: readonly string[],
  catalogue: Readonly<Record<string, unknown>>,
): string[] {
  return names.filter((n) => !Object.hasOwn(catalogue, n));
}

export interface BaselineRun {
  id: number;
  pipelineId: number;
  project: string;
  clientCode: string;
  state: string;
  result: string | null;
}

export class BaselineDeployment {
  constructor(
    private readonly project: string,
    private readonly devops: DevOpsApi,
    private readonly runs: PipelineRuns,
    private readonly repository: ConfigRepository,
  ) {}

  /**
   * The client a tenant pipeline (folder Tenants\{CODE}) belongs to; NotFoundError 'Selected
   * pipeline not found.' (spec 2 §8) when no such pipeline exists.
   */
  async clientOfPipeline(pipelineId: number): Promise<string> {
    const pipelines = await this.devops.listPipelines(this.project);
    const pipeline = pipelines.find((p) => p.id === pipelineId);
    const [, code] = normalisePipelineFolder(pipeline?.folder).split('\\');
    if (!pipeline || !isTenantPipelineFolder(pipeline.folder) || !code || !isClientCode(code)) {
      throw new NotFoundError(PIPELINE_NOT_FOUND_MESSAGE);
    }
    return code;
  }

  /** Spec 2 §7: the full baseline deploy (no components) or a deploy with components. */
  async deploy(
    pipelineId: number,
    components: readonly string[] | undefined,
  ): Promise<BaselineRun> {
    const unknown = unknownNames(components ?? [], BASELINE_COMPONENTS);
    if (unknown.length > 0) {
      throw new InputError(`Unknown component(s): ${unknown.join(', ')}`, 'components');
    }
    const clientCode = await this.clientOfPipeline(pipelineId);
    const request = components
      ? deployComponentsRun({ clientCode, components })
      : fullBaselineDeployRun({ clientCode });
    return this.start(clientCode, request);
  }

  /** Spec 2 §7: off-board with the components array. */
  async offboard(pipelineId: number, components: readonly string[]): Promise<BaselineRun> {
    const unknown = unknownNames(components, OFFBOARD_COMPONENTS);
    if (unknown.length > 0) {
      throw new InputError(`Unknown component(s): ${unknown.join(', ')}`, 'components');
    }
    const clientCode = await this.clientOfPipeline(pipelineId);
    return this.start(clientCode, offboardRun({ clientCode, components }));
  }

  /**
   * ADR 079: off-boards the policies of layers the client no longer has. 404 for a client without
   * configuration; 400 naming `layers.N` for a layer that left none of its policies in the tenant.
   */
  async offboardDroppedLayers(clientCode: string, layers: readonly string[]): Promise<BaselineRun> {
    const tip = await this.repository.branchTip();
    const children = await this.repository.listChildren(clientFolder(clientCode), { commit: tip });
    if (children.length === 0) {
      throw new NotFoundError(`No configuration found for client ${clientCode}`);
    }
    const offered = await readDroppedLayerPolicies(this.repository, clientCode, tip);
    const named = layers.map((name, i) => {
      const policy = offered.find((p) => p.layer.toLowerCase() === name.toLowerCase());
      if (!policy) {
        throw new InputError(
          `layers.${i}: '${name}' is not a layer ${clientCode} no longer has with policies left in its tenant`,
          `layers.${i}`,
        );
      }
      return policy.layer;
    });
    return this.start(
      clientCode,
      droppedLayersOffboardRun({ clientCode, layers: [...new Set(named)] }),
    );
  }

  private async start(
    clientCode: string,
    request: Parameters<PipelineRuns['start']>[1],
  ): Promise<BaselineRun> {
    const run = await this.runs.start(this.project, request);
    return {
      id: run.id,
      pipelineId: run.pipelineId,
      project: this.project,
      clientCode,
      state: run.state,
      result: run.result,
    };
  }

  /** The JSON files at or under a baseline path on main; NotFoundError when there is none. */
  async files(path: string): Promise<{ path: string; name: string }[]> {
    const p = baselinePath(path);
    const items = await this.repository.listTree(`/${p}`);
    const files = items
      .filter((i) => !i.isFolder && i.path.toLowerCase().endsWith('.json'))
      .map((i) => ({
        path: i.path.replace(/^\/+/, ''),
        name: i.path.slice(i.path.lastIndexOf('/') + 1, -'.json'.length),
      }))
      .sort((a, b) => a.path.localeCompare(b.path));
    if (files.length === 0) throw new NotFoundError(`No configuration found at ${p}`);
    return files;
  }

  /** One baseline file on main: its parsed JSON, null when it is not valid JSON. */
  async file(path: string): Promise<{ path: string; content: unknown }> {
    const p = baselinePath(path);
    const file = await this.repository.readText(`/${p}`);
    if (!file) throw new NotFoundError(`No configuration found at ${p}`);
    let content: unknown = null;
    try {
      content = JSON.parse(file.text.replace(/^\uFEFF/, '')) as unknown;
    } catch {
      content = null;
    }
    return { path: p, content };
  }

  /**
   * What a deploy of the components would do in the client's tenant, from the client's last
   * approved capture on main against the baseline: create what the client lacks, update what
   * deviates (the comparison engine's deviations), leave the rest.
   */
  async preview(pipelineId: number, components: readonly string[]) {
    const unknown = unknownNames(components, BASELINE_COMPONENTS);
    if (unknown.length > 0) {
      throw new InputError(`Unknown component(s): ${unknown.join(', ')}`, 'components');
    }
    const clientCode = await this.clientOfPipeline(pipelineId);
    // the client's effective baseline (ADR 068): what its deploy would write
    const [baseline, client] = await Promise.all([
      readClientBaseline(this.repository, clientCode),
      this.repository.readTree(clientResourcesRoot(clientCode)),
    ]);
    const selectedRoots = components.flatMap((name) =>
      (BASELINE_COMPONENTS[name]?.paths ?? []).map((p) => toResourcePath(p).toLowerCase()),
    );
    const under = (path: string) =>
      selectedRoots.some((root) => path === root || path.startsWith(`${root}/`));
    const missing = baseline.missing
      .map((m) => ({ name: m.name, paths: m.paths.filter((p) => under(p.toLowerCase())) }))
      .filter((m) => m.paths.length > 0);
    if (missing.length > 0) {
      throw new InputError(missingParametersMessage(clientCode, missing), 'components');
    }
    const clientFiles = new Map<string, ParsedFile>();
    for (const f of client?.files ?? []) clientFiles.set(toResourcePath(f.path).toLowerCase(), f);
    return {
      clientCode,
      commitId: client?.commitId ?? baseline.commitId,
      components: components.map((name) => {
        const component = BASELINE_COMPONENTS[name]!;
        const roots = component.paths.map((p) => toResourcePath(p).toLowerCase());
        const items = baseline.files
          .filter((f) => {
            const r = toResourcePath(f.path).toLowerCase();
            return (
              r.endsWith('.json') && roots.some((root) => r === root || r.startsWith(`${root}/`))
            );
          })
          .map((f) => {
            const resource = toResourcePath(f.path);
            const clientFile = clientFiles.get(resource.toLowerCase());
            const group = comparePolicy(f, clientFile);
            const action: 'create' | 'update' | 'unchanged' = !clientFile
              ? 'create'
              : group
                ? 'update'
                : 'unchanged';
            return {
              path: resource,
              name: resource.slice(resource.lastIndexOf('/') + 1, -'.json'.length),
              action,
              changes:
                action === 'update'
                  ? (group?.deviations ?? []).slice(0, 5).map((d) => d.property)
                  : [],
            };
          });
        return {
          name,
          items,
          note:
            component.type === 'function'
              ? `Runs ${component.functionName ?? 'a function'}${component.paths.length > 0 && component.functionName === 'New-AegisGroups' ? ': creates only what the tenant lacks, never updates' : ''}.`
              : null,
        };
      }),
    };
  }
}

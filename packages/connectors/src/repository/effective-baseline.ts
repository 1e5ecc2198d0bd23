// A client's effective baseline read from the repository (issue 30, ADR 068): the company baseline,
// the layers its `.layers.json` names, in order, and its `.parameters.json`, merged by the domain's
// `effectiveBaseline`. Every feature that compares or deploys reads the baseline through here.
import {
  BASELINE_ROOT,
  clientLayersPath,
  clientParametersPath,
  clientResourcesRoot,
  droppedLayerPolicies,
  effectiveBaseline,
  layerResourcesRoot,
  NotFoundError,
  parseClientLayers,
  parseTenantParameters,
  toResourcePath,
  type BaselineLayer,
  type DroppedLayerPolicy,
  type EffectiveBaseline,
  type TenantParameters,
} from '@aegis/domain';

import type { VersionSpec } from '../devops';

import { parseJsonFile, type ConfigRepository } from './config-repository';

export interface ClientBaseline extends EffectiveBaseline {
  /** the company baseline's tree id */
  baselineTreeId: string;
  /** the commit the company baseline was read at */
  commitId: string;
  /** the client's layers, in order, with their tree ids */
  layers: { name: string; treeId: string }[];
  parameters: TenantParameters;
  /**
   * What the effective baseline was made from: the company tree, each layer's tree and the blobs of
   * the two client files. Equal keys mean equal effective baselines (a cache key).
   */
  sourceKey: string;
}

/** The client's layer names and parameters at a version, and those files' blob ids. */
export async function readClientBaselineSettings(
  repository: ConfigRepository,
  clientCode: string,
  version: VersionSpec,
): Promise<{ layers: string[]; parameters: TenantParameters; blobIds: string[] }> {
  const [layersFile, parametersFile] = await Promise.all([
    repository.readText(clientLayersPath(clientCode), version),
    repository.readText(clientParametersPath(clientCode), version),
  ]);
  const json = (path: string, file: { text: string } | undefined): unknown =>
    file ? parseJsonFile<unknown>(path, file.text) : undefined;
  return {
    layers: parseClientLayers(json(clientLayersPath(clientCode), layersFile)),
    parameters: parseTenantParameters(json(clientParametersPath(clientCode), parametersFile)),
    blobIds: [layersFile?.objectId ?? '-', parametersFile?.objectId ?? '-'],
  };
}

/**
 * The client's effective baseline at a version (default main). NotFoundError when there is no
 * company baseline or when a layer the client names does not exist.
 */
export async function readClientBaseline(
  repository: ConfigRepository,
  clientCode: string,
  version: VersionSpec = { branch: 'main' },
): Promise<ClientBaseline> {
  // one commit for every read, so the sources agree even when main moves meanwhile
  const pinned: VersionSpec =
    'branch' in version ? { commit: await repository.branchTip(version.branch) } : version;
  const [settings, company] = await Promise.all([
    readClientBaselineSettings(repository, clientCode, pinned),
    repository.readTree(BASELINE_ROOT, pinned),
  ]);
  if (!company) throw new NotFoundError(`No baseline configuration found at ${BASELINE_ROOT}`);
  const layerTrees = await Promise.all(
    settings.layers.map((name) => repository.readTree(layerResourcesRoot(name), pinned)),
  );
  const layers = settings.layers.map((name, i) => {
    const tree = layerTrees[i];
    if (!tree) {
      throw new NotFoundError(
        `${clientCode} names the baseline layer '${name}', but ${layerResourcesRoot(name)} does not exist`,
      );
    }
    return { name, tree };
  });
  const effective = effectiveBaseline(
    company.files,
    layers.map((l) => ({ name: l.name, files: l.tree.files })),
    settings.parameters,
  );
  return {
    ...effective,
    baselineTreeId: company.treeId,
    commitId: company.commitId,
    layers: layers.map((l) => ({ name: l.name, treeId: l.tree.treeId })),
    parameters: settings.parameters,
    sourceKey: [
      company.treeId,
      ...layers.map((l) => `${l.name}@${l.tree.treeId}`),
      ...settings.blobIds,
    ].join(':'),
  };
}

/**
 * What layers the client once had and no longer has left in its tenant (ADR 079): every layer an
 * earlier version of its layers file on main named, its policies that the client's effective
 * baseline at `commit` no longer holds and that the client's approved configuration (its last
 * capture) still holds. Once an off-board removed them, the next capture drops them from the list.
 */
export async function readDroppedLayerPolicies(
  repository: ConfigRepository,
  clientCode: string,
  commit: string,
): Promise<DroppedLayerPolicy[]> {
  const version: VersionSpec = { commit };
  const path = clientLayersPath(clientCode);
  const [history, baseline, captured] = await Promise.all([
    repository.listCommits({ path, version, firstParent: true }),
    readClientBaseline(repository, clientCode, version),
    repository.readTree(clientResourcesRoot(clientCode), version),
  ]);
  const versions = await Promise.all(
    history.map((c) => repository.readText(path, { commit: c.commitId })),
  );
  const current = new Set(baseline.layers.map((l) => l.name.toLowerCase()));
  const dropped = new Map<string, string>();
  for (const file of versions) {
    let names: string[] = [];
    try {
      names = file ? parseClientLayers(parseJsonFile<unknown>(path, file.text)) : [];
    } catch {
      // a version that was never a valid layers file named no layer it could have deployed
    }
    for (const name of names) {
      if (!current.has(name.toLowerCase())) dropped.set(name.toLowerCase(), name);
    }
  }
  const layers = await Promise.all(
    [...dropped.values()].map(async (name): Promise<BaselineLayer | undefined> => {
      const tree = await repository.readTree(layerResourcesRoot(name), version);
      // a layer deleted from the repository since: what it held is no longer known here
      return tree ? { name, files: tree.files } : undefined;
    }),
  );
  const inTenant = new Set(
    (captured?.files ?? []).map((f) => toResourcePath(f.path).toLowerCase()),
  );
  return droppedLayerPolicies(
    layers.filter((l) => l !== undefined),
    baseline.files,
  ).filter((p) => inTenant.has(p.path.toLowerCase()));
}

// A client's tenant parameters and baseline layers (issue 30 §1–2, ADR 068, ADR 073): what it
// holds, where its effective baseline uses each parameter, and changes to either proposed as a pull
// request on main, which main's branch policy holds until someone else approves it (four eyes,
// ADR 051). Both files change what deploys, so Aegis never writes them on main itself.
import { createHash } from 'node:crypto';

import type { FileChange, VersionSpec } from '@aegis/connectors/devops';
import {
  parseJsonFile,
  readClientBaseline,
  readClientBaselineSettings,
  readDroppedLayerPolicies,
  type ConfigRepository,
} from '@aegis/connectors/repository';
import type {
  ClientLayersBody,
  ClientParametersDto,
  ParameterChangeBody,
  ParameterUseDto,
  PromotionBody,
  PromotionPreviewDto,
  PromotionQuery,
  ProposedSettingsChangeDto,
  SettingsPullRequestDto,
} from '@aegis/contracts';
import {
  BASELINE_ROOT,
  clientFolder,
  clientPolicyPath,
  clientLayersPath,
  clientParametersPath,
  clientSettingsBranchName,
  clientSettingsBranchPrefix,
  ConflictError,
  InputError,
  LAYERS_FOLDER,
  lastSegment,
  layerResourcesRoot,
  MAIN_REF,
  NotFoundError,
  parameteriseDocument,
  parseClientLayers,
  parseTenantParameters,
  sourcePathOf,
  type ClientSettingsKind,
  type EffectiveFile,
  type ParameterValue,
  type TenantParameters,
} from '@aegis/domain';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const shown = (value: ParameterValue) => JSON.stringify(value);

function useOf(file: EffectiveFile): ParameterUseDto {
  return { path: file.path, sourcePath: sourcePathOf(file), layer: file.layer ?? null };
}

/** name → where the effective baseline uses it */
function usesByName(files: readonly EffectiveFile[]): Map<string, ParameterUseDto[]> {
  const uses = new Map<string, ParameterUseDto[]>();
  for (const file of files) {
    for (const name of file.parameters) {
      const list = uses.get(name) ?? [];
      list.push(useOf(file));
      uses.set(name, list);
    }
  }
  for (const list of uses.values()) list.sort((a, b) => a.path.localeCompare(b.path));
  return uses;
}

/** A short, stable name of a proposed file's text: the same proposal gives the same branch. */
const changeName = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export class ClientSettingsService {
  constructor(private readonly repository: ConfigRepository) {}

  /** The client's parameters, where its effective baseline uses them, what is missing, its layers. */
  async parameters(client: string): Promise<ClientParametersDto> {
    const commitId = await this.repository.branchTip();
    const version: VersionSpec = { commit: commitId };
    await this.assertClient(client, version);
    const [baseline, availableLayers, pending, dropped] = await Promise.all([
      readClientBaseline(this.repository, client, version),
      this.layerNames(version),
      this.pending(client),
      readDroppedLayerPolicies(this.repository, client, commitId),
    ]);
    const uses = usesByName(baseline.files);
    return {
      client,
      commitId,
      parameters: Object.entries(baseline.parameters)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, value]) => ({ name, value, usedBy: uses.get(name) ?? [] })),
      missing: baseline.missing.map(({ name }) => ({ name, usedBy: uses.get(name) ?? [] })),
      layers: baseline.layers.map((l) => l.name),
      availableLayers,
      pending,
      droppedLayers: dropped.map((p) => ({ ...p, sourcePath: sourcePathOf(p) })),
    };
  }

  /**
   * Sets and removes parameters as one pull request of the client's parameters file. 400 naming
   * `remove.N` for a parameter the client does not have; 409 when nothing would change.
   */
  async proposeParameters(
    client: string,
    body: ParameterChangeBody,
    requester: string,
  ): Promise<ProposedSettingsChangeDto> {
    const tip = await this.repository.branchTip();
    const version: VersionSpec = { commit: tip };
    await this.assertClient(client, version);
    const path = clientParametersPath(client);
    const [file, baseline] = await Promise.all([
      this.repository.readText(path, version),
      readClientBaseline(this.repository, client, version),
    ]);
    const json: unknown = file ? parseJsonFile<unknown>(path, file.text) : undefined;
    const current: TenantParameters = parseTenantParameters(json);
    const set = body.set ?? {};
    const remove = body.remove ?? [];
    remove.forEach((name, i) => {
      if (!Object.hasOwn(current, name)) {
        throw new InputError(`remove.${i}: ${client} has no parameter '${name}'`, `remove.${i}`);
      }
    });
    const next: Record<string, ParameterValue> = { ...current, ...set };
    for (const name of remove) delete next[name];
    const uses = usesByName(baseline.files);
    const lines: string[] = [];
    for (const [name, value] of Object.entries(set).sort(([a], [b]) => a.localeCompare(b))) {
      const before = current[name];
      if (before === value) continue;
      lines.push(
        before === undefined
          ? `- Add '${name}' = ${shown(value)}`
          : `- Change '${name}' from ${shown(before)} to ${shown(value)}`,
      );
    }
    for (const name of [...remove].sort()) {
      const used = uses.get(name) ?? [];
      lines.push(
        `- Remove '${name}' (was ${shown(current[name]!)})${used.length > 0 ? `: the baseline still uses it, so deploys of ${client} will refuse until it is set again` : ''}`,
      );
    }
    if (lines.length === 0) {
      throw new ConflictError(`${client} already has these parameter values: nothing to propose.`);
    }
    const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
    const text = `${JSON.stringify({ ...(isRecord(json) ? json : {}), parameters: sorted }, null, 2)}\n`;
    const touched = [...Object.keys(set), ...remove];
    const used = [...new Set(touched.flatMap((n) => (uses.get(n) ?? []).map((u) => u.sourcePath)))];
    return this.propose('parameters', client, {
      tip,
      change: { changeType: file ? 'edit' : 'add', path, content: text },
      title: `Change the tenant parameters of ${client}`,
      description: [
        `Proposed by ${requester} on the Parameters screen.`,
        ...(body.reason ? ['', `Reason: ${body.reason}`] : []),
        '',
        ...lines,
        '',
        used.length > 0
          ? `Deploys of these policies change with it:\n${used.map((p) => `- ${p}`).join('\n')}`
          : 'No policy of the effective baseline uses these parameters now.',
      ].join('\n'),
    });
  }

  /**
   * Replaces the client's layers (in order) as one pull request of its layers file. 400 naming
   * `layers.N` for a layer the repository does not hold; 409 when the order is already that.
   */
  async proposeLayers(
    client: string,
    body: ClientLayersBody,
    requester: string,
  ): Promise<ProposedSettingsChangeDto> {
    const tip = await this.repository.branchTip();
    const version: VersionSpec = { commit: tip };
    await this.assertClient(client, version);
    const path = clientLayersPath(client);
    const [file, available] = await Promise.all([
      this.repository.readText(path, version),
      this.layerNames(version),
    ]);
    const json: unknown = file ? parseJsonFile<unknown>(path, file.text) : undefined;
    const current = parseClientLayers(json);
    const layers = body.layers.map((name, i) => {
      const known = available.find((a) => a.toLowerCase() === name.toLowerCase());
      if (!known) {
        throw new InputError(
          `layers.${i}: there is no layer '${name}' (${layerResourcesRoot(name)})`,
          `layers.${i}`,
        );
      }
      return known;
    });
    if (layers.join('\n') === current.join('\n')) {
      throw new ConflictError(
        `${client} already has these layers in this order: nothing to propose.`,
      );
    }
    const listed = (names: readonly string[]) =>
      names.length === 0 ? '(none)' : names.map((n) => `'${n}'`).join(', then ');
    const removed = current.filter((n) => !layers.includes(n));
    const text = `${JSON.stringify({ ...(isRecord(json) ? json : {}), layers }, null, 2)}\n`;
    return this.propose('layers', client, {
      tip,
      change: { changeType: file ? 'edit' : 'add', path, content: text },
      title: `Change the baseline layers of ${client}`,
      description: [
        `Proposed by ${requester} on the Parameters screen.`,
        ...(body.reason ? ['', `Reason: ${body.reason}`] : []),
        '',
        `Layers before: ${listed(current)}`,
        `Layers after: ${listed(layers)} (a later layer wins)`,
        ...(removed.length > 0
          ? [
              '',
              `Policies only ${listed(removed)} held stay in the tenant until they are removed from it: once this is completed, the client's Parameters screen offers to remove them.`,
            ]
          : []),
      ].join('\n'),
    });
  }

  /**
   * What promoting the client's captured policy at `path` into the company baseline (or a layer)
   * would write: the document with the tenant's values that equal its parameters replaced by their
   * tokens, and each substitution. 404 when the client has no such policy; 400 naming `layer` for
   * a layer the repository does not hold.
   */
  async promotionPreview(client: string, query: PromotionQuery): Promise<PromotionPreviewDto> {
    const tip = await this.repository.branchTip();
    return (await this.promotion(client, query, tip)).preview;
  }

  /** Proposes the promotion as a pull request of the one baseline (or layer) file. */
  async proposePromotion(
    client: string,
    body: PromotionBody,
    requester: string,
  ): Promise<ProposedSettingsChangeDto> {
    const tip = await this.repository.branchTip();
    const { preview, text } = await this.promotion(client, body, tip);
    const where = body.layer ? `the '${body.layer}' layer` : 'the company baseline';
    return this.propose('promote', client, {
      tip,
      change: {
        changeType: preview.replaces ? 'edit' : 'add',
        path: preview.targetPath,
        content: text,
      },
      title: `Promote ${client}'s ${body.path} into ${where}`,
      description: [
        `Proposed by ${requester} from ${client}'s configuration (${preview.sourcePath}).`,
        ...(body.reason ? ['', `Reason: ${body.reason}`] : []),
        '',
        preview.replaces
          ? `Replaces the policy of ${where} at ${preview.targetPath} whole.`
          : `Adds ${preview.targetPath} to ${where}.`,
        '',
        preview.substitutions.length > 0
          ? `The tenant's values replaced by parameters:\n${preview.substitutions
              .map((x) => `- ${x.path}: ${JSON.stringify(x.value)} → {{aegis:param:${x.name}}}`)
              .join('\n')}`
          : "No value of the policy equals one of the client's parameters: it is promoted as captured.",
      ].join('\n'),
    });
  }

  private async promotion(
    client: string,
    query: PromotionQuery,
    tip: string,
  ): Promise<{ preview: PromotionPreviewDto; text: string }> {
    const version: VersionSpec = { commit: tip };
    const sourcePath = clientPolicyPath(client, query.path);
    let root = BASELINE_ROOT;
    if (query.layer !== undefined) {
      const layers = await this.layerNames(version);
      const known = layers.find((l) => l.toLowerCase() === query.layer!.toLowerCase());
      if (!known) {
        throw new InputError(`layer: there is no layer '${query.layer}'`, 'layer');
      }
      root = layerResourcesRoot(known);
    }
    const targetPath = `${root}/${query.path}`;
    const [file, settings, existing] = await Promise.all([
      this.repository.readText(sourcePath, version),
      readClientBaselineSettings(this.repository, client, version),
      this.repository.fileExists(targetPath, version),
    ]);
    if (!file) throw new NotFoundError(`${client} has no policy at ${query.path}`);
    const { content, substitutions } = parameteriseDocument(
      parseJsonFile<unknown>(sourcePath, file.text),
      settings.parameters,
    );
    return {
      preview: { sourcePath, targetPath, replaces: existing, substitutions, content },
      text: `${JSON.stringify(content, null, 2)}\n`,
    };
  }

  private async propose(
    kind: ClientSettingsKind,
    client: string,
    p: {
      tip: string;
      change: FileChange & { content: string };
      title: string;
      description: string;
    },
  ): Promise<ProposedSettingsChangeDto> {
    const branch = clientSettingsBranchName(kind, client, changeName(p.change.content));
    const proposed = await this.repository.proposeChange({
      branch,
      baseCommitId: p.tip,
      commit: { comment: p.title, changes: [p.change] },
      pullRequest: {
        title: p.title,
        description: p.description,
        labels: [kind, client],
      },
    });
    return {
      pullRequestId: proposed.pullRequest.pullRequestId,
      branch,
      prUrl: proposed.pullRequest.webUrl,
    };
  }

  /** Open pull requests to main from the client's parameters and layers branches. */
  private async pending(client: string): Promise<SettingsPullRequestDto[]> {
    const prefixes = (['parameters', 'layers'] as const).map(
      (kind) => `refs/heads/${clientSettingsBranchPrefix(kind, client)}`,
    );
    const prs = await this.repository.listPullRequests({
      status: 'active',
      targetRefName: MAIN_REF,
      top: 1000,
    });
    return prs
      .filter((pr) => prefixes.some((prefix) => pr.sourceRefName.startsWith(prefix)))
      .sort((a, b) => b.pullRequestId - a.pullRequestId)
      .map((pr) => ({
        pullRequestId: pr.pullRequestId,
        title: pr.title,
        createdBy: pr.createdBy.displayName || pr.createdBy.uniqueName,
        creationDate: pr.creationDate,
        prUrl: pr.webUrl,
      }));
  }

  /** The layers the repository holds: the folders under /Layers, sorted. */
  private async layerNames(version: VersionSpec): Promise<string[]> {
    const items = await this.repository.listChildren(LAYERS_FOLDER, version);
    return items
      .filter((item) => item.isFolder)
      .map((item) => lastSegment(item.path))
      .sort((a, b) => a.localeCompare(b));
  }

  private async assertClient(client: string, version: VersionSpec): Promise<void> {
    const children = await this.repository.listChildren(clientFolder(client), version);
    if (children.length === 0)
      throw new NotFoundError(`No configuration found for client ${client}`);
  }
}

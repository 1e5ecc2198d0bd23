// Layered baselines (issue 30 §2, ADR 068): the company baseline, then each of the client's layers
// in the order the client names them, then its parameters. A layer's policy replaces the policy at
// the same resource path whole (no property merge); a path no earlier source holds is added.
import { toResourcePath } from '../comparison/paths';
import type { ConfigFile } from '../comparison/types';
import { InputError } from '../errors';
import { BASELINE_ROOT, layerResourcesRoot } from '../repository-layout/repository-layout';

import {
  parametersUsed as parametersOf,
  substituteParameters,
  type TenantParameters,
} from './parameters';

/** A file of the company baseline or a layer; `text` is read only when content is null. */
export interface SourceFile extends ConfigFile {
  text?: string;
}

/** A layer: its name and its files (paths relative to its resources root, or carrying it). */
export interface BaselineLayer {
  name: string;
  files: readonly SourceFile[];
}

/** One file of a client's effective baseline. */
export interface EffectiveFile extends ConfigFile {
  /** the layer the policy comes from; undefined for the company baseline */
  layer: string | undefined;
  /** the parameters the policy uses, sorted */
  parameters: string[];
  /** the file's text, kept only when it is not valid JSON (content null), to show what it holds */
  text?: string;
}

export interface EffectiveBaseline {
  files: EffectiveFile[];
  /** parameters the files use that the client lacks, with the resource paths using each */
  missing: { name: string; paths: string[] }[];
}

const LAYER_NAME = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,62}[A-Za-z0-9]$|^[A-Za-z0-9]$/;

/**
 * Why a layer name is not one, or undefined: letters, digits, spaces, '-' and '_', not starting or
 * ending with a space, at most 64 (it is a folder name under /Layers).
 */
export function layerNameProblem(name: string): string | undefined {
  return LAYER_NAME.test(name)
    ? undefined
    : 'must be 1 to 64 letters, digits, spaces, - or _, starting and ending with a letter or digit';
}

/**
 * A client's layers file read from JSON (`{"layers": ["Healthcare", …]}`), in order; InputError
 * naming the field for a name that is not one or is named twice.
 */
export function parseClientLayers(json: unknown, field = 'layers'): string[] {
  if (json === undefined || json === null) return [];
  const raw =
    typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)['layers']
      : undefined;
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new InputError(`${field} must be a list of layer names`, field);
  const seen = new Set<string>();
  return raw.map((name, i) => {
    if (typeof name !== 'string') throw new InputError(`${field}[${i}] must be a string`, field);
    const problem = layerNameProblem(name);
    if (problem) throw new InputError(`${field}[${i}] ${problem}`, field);
    if (seen.has(name.toLowerCase())) {
      throw new InputError(`${field}[${i}] names '${name}' twice`, field);
    }
    seen.add(name.toLowerCase());
    return name;
  });
}

/**
 * The client's effective baseline: the company files, overridden and added to by each layer in
 * order (a later layer wins), then with the client's parameters substituted. Paths are resource
 * paths (`AzureAD/Group/x.json`), matched without case as the comparison matches them; files that
 * are not valid JSON (content null) pass through. The company's order is kept (a layer's policy
 * takes the place of the one it replaces; added ones follow), as the comparison names same-named
 * policies by that order. Tokens whose parameter is missing stay in the
 * content, so a comparison shows the token against the client's value, and are listed in `missing`.
 */
export function effectiveBaseline(
  company: readonly SourceFile[],
  layers: readonly BaselineLayer[],
  parameters: TenantParameters,
): EffectiveBaseline {
  const byPath = new Map<string, { file: SourceFile; layer: string | undefined }>();
  const put = (file: SourceFile, layer: string | undefined) => {
    const path = toResourcePath(file.path);
    byPath.set(path.toLowerCase(), {
      file: { path, content: file.content, text: file.text },
      layer,
    });
  };
  for (const file of company) put(file, undefined);
  for (const layer of layers) for (const file of layer.files) put(file, layer.name);

  const missing = new Map<string, string[]>();
  const files: EffectiveFile[] = [];
  for (const { file, layer } of byPath.values()) {
    const substituted = substituteParameters(file.content, parameters);
    for (const name of substituted.missing) {
      const paths = missing.get(name) ?? [];
      paths.push(file.path);
      missing.set(name, paths);
    }
    files.push({
      path: file.path,
      content: substituted.content,
      layer,
      parameters: parametersOf(file.content),
      ...(file.content === null && file.text !== undefined ? { text: file.text } : {}),
    });
  }
  return {
    files,
    missing: [...missing.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, paths]) => ({ name, paths: paths.sort() })),
  };
}

/** Where a file of an effective baseline lives in the repository: its layer's folder or the company's. */
export function sourcePathOf(file: Pick<EffectiveFile, 'path' | 'layer'>): string {
  return `${file.layer === undefined ? BASELINE_ROOT : layerResourcesRoot(file.layer)}/${file.path}`;
}

/** A policy a layer the client no longer has added, which its effective baseline does not hold. */
export interface DroppedLayerPolicy {
  layer: string;
  /** resource path (`Category/Kind/Policy.json`) */
  path: string;
}

/**
 * What removing layers from a client leaves in its tenant (ADR 079): each dropped layer's policies
 * whose resource path the client's effective baseline no longer holds (matched without case). A
 * path the company baseline or a remaining layer still holds is not offered: its deploy owns it.
 */
export function droppedLayerPolicies(
  dropped: readonly BaselineLayer[],
  effective: readonly Pick<EffectiveFile, 'path'>[],
): DroppedLayerPolicy[] {
  const kept = new Set(effective.map((f) => toResourcePath(f.path).toLowerCase()));
  const offered = new Map<string, DroppedLayerPolicy>();
  for (const layer of dropped) {
    for (const file of layer.files) {
      const path = toResourcePath(file.path);
      const key = path.toLowerCase();
      if (!path.toLowerCase().endsWith('.json') || kept.has(key) || offered.has(key)) continue;
      offered.set(key, { layer: layer.name, path });
    }
  }
  return [...offered.values()].sort(
    (a, b) => a.layer.localeCompare(b.layer) || a.path.localeCompare(b.path),
  );
}

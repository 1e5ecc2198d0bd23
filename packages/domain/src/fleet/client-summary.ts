// A client's fleet figures from the baseline's files and its folder's files (issue 17, ADR 034):
// pure work on files already read, so it runs in the server's thread, in a summary worker
// (ADR 044) or in the rebuild pipeline's task (ADR 062) with the same result.
import {
  applyAcceptedDeviations,
  emptyAcceptedDeviations,
  type AcceptedDeviationsConfig,
} from '../accepted-deviations/accepted-deviations';
import {
  captureManifestPath,
  notCapturedOutcomeOf,
  notCapturedWorkloads,
  toCaptureManifest,
  type CaptureManifest,
  type NotCapturedWorkload,
} from '../capture/manifest';
import { evaluateCompliance } from '../comparison/compare-trees';
import { BASELINE_VIEW_COMPARE_OPTIONS } from '../comparison/constants';
import type { ComplianceData, ConfigFile } from '../comparison/types';
import { effectiveBaseline, parseClientLayers } from '../effective-baseline/layers';
import { parseTenantParameters } from '../effective-baseline/parameters';
import { applyMatches, type ConfirmedMatch } from '../matching/matches';
import {
  acceptedDeviationsPath,
  clientLayersPath,
  clientParametersPath,
  clientResourcesRoot,
  isInsideFolder,
  LAYERS_FOLDER,
  layerResourcesRoot,
  matchingConfigPath,
} from '../repository-layout/repository-layout';
import { runStandardBaseline } from '../standard-baseline/run-standard-baseline';

import { fleetDeviationsOf, type FleetDeviation } from './fleet';

/**
 * The report's compliance of a client's files against the baseline's, with its saved matches and
 * accepted deviations applied: what the compliance report shows, without the server's caches
 * (the fleet caches its own summary by tree ids).
 */
export function complianceOfFiles(
  baselineFiles: readonly ConfigFile[],
  clientFiles: readonly ConfigFile[],
  matches: readonly ConfirmedMatch[],
  accepted: AcceptedDeviationsConfig,
  now: Date,
  manifest?: CaptureManifest,
): ComplianceData {
  const options = { ...BASELINE_VIEW_COMPARE_OPTIONS, ...(manifest ? { manifest } : {}) };
  const raw = evaluateCompliance(baselineFiles, clientFiles, options);
  return applyAcceptedDeviations(applyMatches(raw, matches, options), accepted, now);
}

/** A client's figures computed from one baseline tree and one client folder tree. */
export interface ClientSummary {
  /** false: the folder has no configuration (nothing under M365Config/Resources) */
  hasConfiguration: boolean;
  compliancePercentage?: number;
  criticalCount?: number;
  highCount?: number;
  acceptedDeviations?: number;
  standardPercentage?: number;
  deviations: FleetDeviation[];
  /** workloads the capture on main did not read: left out of every figure (ADR 050) */
  notCaptured: NotCapturedWorkload[];
  /**
   * when the configuration on main was read from the tenant (its manifest), however it got there:
   * a merged capture, or the first capture tenant onboarding commits (issue 27)
   */
  capturedAt?: string;
  notes: string[];
  /** when the figures were computed, and the acceptance expiries that would change them */
  computedAt: number;
  expiries: number[];
}

/**
 * The client's effective baseline (ADR 068) from the baseline's files — the company's under
 * /M365Config/Resources and every layer's under /Layers/{name}/M365Config/Resources — and the
 * client's own layers and parameters files. Files that cannot be read are noted, and the company
 * baseline is compared.
 */
function effectiveBaselineOf(
  client: string,
  baseline: readonly ConfigFile[],
  byPath: ReadonlyMap<string, ConfigFile>,
  notes: string[],
): ConfigFile[] {
  const company = baseline.filter((f) => !isInsideFolder(f.path, LAYERS_FOLDER));
  const layersFile = byPath.get(clientLayersPath(client));
  const parametersFile = byPath.get(clientParametersPath(client));
  if (!layersFile && !parametersFile) return company;
  try {
    const layers = parseClientLayers(layersFile?.content).map((name) => {
      const root = layerResourcesRoot(name);
      const files = baseline.filter((f) => isInsideFolder(f.path, root));
      if (files.length === 0) notes.push(`The baseline layer '${name}' does not exist.`);
      return { name, files };
    });
    return effectiveBaseline(company, layers, parseTenantParameters(parametersFile?.content)).files;
  } catch (error) {
    notes.push(
      `The baseline layers or parameters could not be read and were not applied: ${(error as Error).message}`,
    );
    return company;
  }
}

/**
 * A client's figures from the baseline's files and every file of its folder (repository paths):
 * compliance as the report computes it, the standard catalogue's percentage, the deviations.
 */
export function summarizeClient(
  client: string,
  baseline: readonly ConfigFile[],
  folderFiles: readonly ConfigFile[],
  at: number,
): ClientSummary {
  const root = `${clientResourcesRoot(client)}/`;
  const resources = folderFiles.filter((f) => f.path.startsWith(root));
  if (resources.length === 0) {
    return noConfiguration(at);
  }
  const notes: string[] = [];
  const byPath = new Map(folderFiles.map((f) => [f.path, f]));
  // a capture older than manifests has none: every workload counts as read
  const manifest = toCaptureManifest(byPath.get(captureManifestPath(client))?.content);
  const captured = resources.filter((f) => !notCapturedOutcomeOf(manifest, f.path));
  const accepted =
    documentOf<AcceptedDeviationsConfig>(
      byPath.get(acceptedDeviationsPath(client)),
      (d) => Array.isArray(d.acceptedDeviations),
      'accepted-deviations configuration',
      notes,
    ) ?? emptyAcceptedDeviations(client, new Date(at));
  const matching = documentOf<{ matches: ConfirmedMatch[] }>(
    byPath.get(matchingConfigPath(client)),
    (d) => Array.isArray(d.matches),
    'matching configuration',
    notes,
  );
  const data = complianceOfFiles(
    effectiveBaselineOf(client, baseline, byPath, notes),
    resources,
    matching?.matches ?? [],
    accepted,
    new Date(at),
    manifest,
  );
  const standard = runStandardBaseline(captured);
  return {
    hasConfiguration: true,
    compliancePercentage: data.compliancePercentage,
    criticalCount: data.criticalCount,
    highCount: data.highCount,
    acceptedDeviations: data.acceptedDeviationsCount,
    ...(standard.evaluatedCount > 0 ? { standardPercentage: standard.percentage } : {}),
    deviations: fleetDeviationsOf(data.deviations),
    notCaptured: notCapturedWorkloads(manifest),
    ...(manifest ? { capturedAt: manifest.capturedAt } : {}),
    notes,
    computedAt: at,
    expiries: accepted.acceptedDeviations
      .map((a) => (a.expiresAt ? Date.parse(a.expiresAt) : NaN))
      .filter((t) => !Number.isNaN(t)),
  };
}

/**
 * Whether an accepted deviation expired between the moment a summary was computed and `at`: its
 * figures then no longer hold, though the trees it came from are the same.
 */
export function summaryExpiredBetween(
  summary: Pick<ClientSummary, 'computedAt' | 'expiries'>,
  at: number,
): boolean {
  const from = Math.min(summary.computedAt, at);
  const to = Math.max(summary.computedAt, at);
  return summary.expiries.some((e) => e > from && e <= to);
}

/** The figures of a client whose folder has no configuration. */
export function noConfiguration(at: number): ClientSummary {
  return {
    hasConfiguration: false,
    deviations: [],
    notCaptured: [],
    notes: [],
    computedAt: at,
    expiries: [],
  };
}

/** A configuration document of the client folder; unreadable ones are noted and not applied (spec 3 §7). */
function documentOf<T extends object>(
  file: { content: unknown } | undefined,
  valid: (doc: T) => boolean,
  label: string,
  notes: string[],
): T | undefined {
  if (!file) return undefined;
  const doc = file.content as T | null;
  if (doc && typeof doc === 'object' && valid(doc)) return doc;
  notes.push(`The ${label} could not be read and was not applied.`);
  return undefined;
}

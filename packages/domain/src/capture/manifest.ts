// What a capture could and could not read (issue 25 item 6, ADR 050). A capture reads each
// workload separately; its manifest, committed with the captured files, records per workload
// whether it was read (and how many objects) or why not. Whatever compares the client's
// configuration treats the policies of a workload that was not read as 'Not captured: {reason}',
// never as deleted, missing or drifted.
import { clientFolder } from '../repository-layout';

/** Why a workload was not read. */
export type WorkloadNotRead =
  /** the service answered an error (after retries) */
  | { status: 'failed'; httpStatus?: number; message: string }
  /** the app lacks the permission or role the catalogue names for the workload */
  | { status: 'notPermitted'; permission: string; message?: string }
  /** the tenant has no licence for the service */
  | { status: 'notLicensed'; message: string }
  /** Microsoft publishes no API for it (Planner tenant settings) */
  | { status: 'noPublicApi' };

export type WorkloadOutcomeStatus = 'read' | WorkloadNotRead['status'];

export type CaptureManifestEntry = {
  /** `Category/Kind`, the folder under the resources root */
  workload: string;
} & ({ status: 'read'; count: number } | WorkloadNotRead);

export interface CaptureManifest {
  version: 1;
  /** ISO time of the read */
  capturedAt: string;
  workloads: CaptureManifestEntry[];
}

export const CAPTURE_MANIFEST_VERSION = 1;

/** `Clients/{CODE}/.capture-manifest.json`, committed with every capture and backup. */
export function captureManifestPath(clientCode: string): string {
  return `${clientFolder(clientCode)}/.capture-manifest.json`;
}

export function buildCaptureManifest(
  capturedAt: Date,
  outcomes: Iterable<readonly [workload: string, outcome: CaptureManifestEntryOutcome]>,
): CaptureManifest {
  return {
    version: CAPTURE_MANIFEST_VERSION,
    capturedAt: capturedAt.toISOString(),
    workloads: [...outcomes]
      .map(([workload, outcome]) => ({ workload, ...outcome }))
      .sort((a, b) => a.workload.localeCompare(b.workload)),
  };
}

export type CaptureManifestEntryOutcome = { status: 'read'; count: number } | WorkloadNotRead;

export function renderCaptureManifest(manifest: CaptureManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function parseEntry(value: unknown): CaptureManifestEntry | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const e = value as Record<string, unknown>;
  const workload = e['workload'];
  if (!isString(workload) || !/^[^/]+\/[^/]+$/.test(workload)) return undefined;
  switch (e['status']) {
    case 'read':
      return typeof e['count'] === 'number' && e['count'] >= 0
        ? { workload, status: 'read', count: e['count'] }
        : undefined;
    case 'failed':
      return isString(e['message'])
        ? {
            workload,
            status: 'failed',
            message: e['message'],
            ...(typeof e['httpStatus'] === 'number' ? { httpStatus: e['httpStatus'] } : {}),
          }
        : undefined;
    case 'notPermitted':
      return isString(e['permission'])
        ? {
            workload,
            status: 'notPermitted',
            permission: e['permission'],
            ...(isString(e['message']) ? { message: e['message'] } : {}),
          }
        : undefined;
    case 'notLicensed':
      return isString(e['message'])
        ? { workload, status: 'notLicensed', message: e['message'] }
        : undefined;
    case 'noPublicApi':
      return { workload, status: 'noPublicApi' };
    default:
      return undefined;
  }
}

/**
 * The manifest in a file's text; undefined when the text is not one (a capture older than
 * manifests has none: every workload counts as read, as before).
 */
export function parseCaptureManifest(text: string | undefined): CaptureManifest | undefined {
  if (!text) return undefined;
  try {
    return toCaptureManifest(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The manifest in a parsed JSON value; undefined when the value is not one. */
export function toCaptureManifest(value: unknown): CaptureManifest | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const m = value as Record<string, unknown>;
  if (m['version'] !== CAPTURE_MANIFEST_VERSION || !isString(m['capturedAt'])) return undefined;
  if (!Array.isArray(m['workloads'])) return undefined;
  const workloads = m['workloads'].map(parseEntry);
  if (workloads.some((w) => !w)) return undefined;
  return {
    version: 1,
    capturedAt: m['capturedAt'],
    workloads: workloads as CaptureManifestEntry[],
  };
}

/** The reason shown after 'Not captured: ' for a workload that was not read. */
export function notCapturedReason(outcome: WorkloadNotRead): string {
  switch (outcome.status) {
    case 'failed':
      return outcome.httpStatus
        ? `the service answered ${outcome.httpStatus}: ${outcome.message}`
        : outcome.message;
    case 'notPermitted':
      return `the Aegis app lacks ${outcome.permission}`;
    case 'notLicensed':
      return `not licensed: ${outcome.message}`;
    case 'noPublicApi':
      return 'Microsoft publishes no API for it';
  }
}

/** 'Not captured: {reason}', the one text every screen shows for a workload that was not read. */
export function notCapturedText(outcome: WorkloadNotRead): string {
  return `Not captured: ${notCapturedReason(outcome)}`;
}

/** A workload that was not read, with the text screens show for it. */
export interface NotCapturedWorkload {
  /** `Category/Kind` */
  workload: string;
  status: WorkloadNotRead['status'];
  /** 'Not captured: {reason}' */
  text: string;
}

/** The workloads a manifest says were not read, in workload order. */
export function notCapturedWorkloads(manifest: CaptureManifest | undefined): NotCapturedWorkload[] {
  return (manifest?.workloads ?? []).flatMap((entry) =>
    entry.status === 'read'
      ? []
      : [{ workload: entry.workload, status: entry.status, text: notCapturedText(entry) }],
  );
}

/** The texts of the 'not captured' notice, on the screens and in the PDF reports (ADR 050). */
export const NOT_CAPTURED_NOTICE_TEXTS = {
  partialTitle: 'Partial capture: some workloads were not read',
  title: 'Some workloads are not captured',
  body: 'Their policies are left as they were and are not compared.',
} as const;

/** The notice's lines: workloads with the same reason together (a service that refused is named once), in first-seen order. */
export function notCapturedByReason(
  workloads: readonly Pick<NotCapturedWorkload, 'workload' | 'text'>[],
): { text: string; workloads: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const w of workloads) groups.set(w.text, [...(groups.get(w.text) ?? []), w.workload]);
  return [...groups].map(([text, names]) => ({ text, workloads: names }));
}

/**
 * The workloads that make a capture partial: ones the tenant has that could not be read (failed, or
 * the app was not permitted). 'Not licensed' (the tenant has nothing there) and 'no public API' (no
 * capture can read it) are permanent facts of the tenant, not gaps of this capture.
 */
export function partialWorkloads(manifest: CaptureManifest | undefined): NotCapturedWorkload[] {
  return notCapturedWorkloads(manifest).filter(makesCapturePartial);
}

/** Whether a workload not read makes its capture partial (failed or not permitted). */
export function makesCapturePartial(workload: Pick<NotCapturedWorkload, 'status'>): boolean {
  return workload.status === 'failed' || workload.status === 'notPermitted';
}

export function isPartialCapture(manifest: CaptureManifest | undefined): boolean {
  return partialWorkloads(manifest).length > 0;
}

/**
 * The `Category/Kind` of a path under a resources root (`…/Resources/<Category>/<Kind>/<Policy>.json`),
 * or of a path already relative to it (`<Category>/<Kind>/<Policy>.json`).
 */
function workloadOfPath(path: string): string | undefined {
  const marker = 'M365Config/Resources/';
  const at = path.indexOf(marker);
  const relative = (at >= 0 ? path.slice(at + marker.length) : path).replace(/^\/+/, '');
  const [category, kind, ...rest] = relative.split('/');
  return category && kind && rest.length > 0 ? `${category}/${kind}` : undefined;
}

/**
 * Decides, for a policy path, whether the manifest says its workload was not read; the outcome
 * when it was not. Paths are repository paths or paths relative to the resources root.
 */
export function notCapturedOutcomeOf(
  manifest: CaptureManifest | undefined,
  path: string,
): NotCapturedWorkload | undefined {
  const workload = workloadOfPath(path);
  if (!workload) return undefined;
  return notCapturedWorkloads(manifest).find(
    (w) => w.workload.toLowerCase() === workload.toLowerCase(),
  );
}

/** Splits policy paths into those of read workloads and those of workloads that were not read. */
export function partitionByCapture<T>(
  manifest: CaptureManifest | undefined,
  items: readonly T[],
  pathOf: (item: T) => string,
): { captured: T[]; notCaptured: T[] } {
  const captured: T[] = [];
  const notCaptured: T[] = [];
  for (const item of items) {
    (notCapturedOutcomeOf(manifest, pathOf(item)) ? notCaptured : captured).push(item);
  }
  return { captured, notCaptured };
}

/** Whether an approval comment says the capture is partial ('partial' or 'not captured', as words). */
export function commentSaysPartial(comment: string | undefined): boolean {
  return comment !== undefined && /\bpartial\b|\bnot captured\b/i.test(comment);
}

/**
 * The partial-capture approval rule (ADR 050): a partial capture is approved only with a comment
 * that says so, i.e. mentions 'partial' or 'not captured'. Returns the refusal, or undefined.
 */
export function partialApprovalRefusal(
  manifest: CaptureManifest | undefined,
  comment: string | undefined,
): string | undefined {
  if (!isPartialCapture(manifest)) return undefined;
  if (commentSaysPartial(comment)) return undefined;
  const names = partialWorkloads(manifest)
    .map((w) => w.workload)
    .join(', ');
  return `This capture is partial (not captured: ${names}). Say so in the approval comment (mention 'partial' or 'not captured') to approve it.`;
}

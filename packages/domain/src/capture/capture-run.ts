/** Spec 3 §9: the capture run is polled every 5 s. */
export const CAPTURE_POLL_INTERVAL_MS = 5000;

export type CaptureStatusType = 'info' | 'success' | 'error' | 'warning';

/** Capture progress (spec 3 §4, §9): 10 starting, 20 started, +10 per poll up to 90, 100 when done. */
export const CAPTURE_PROGRESS = {
  starting: 10,
  started: 20,
  step: 10,
  max: 90,
  done: 100,
} as const;

export function nextCaptureProgress(current: number): number {
  return Math.min(CAPTURE_PROGRESS.max, current + CAPTURE_PROGRESS.step);
}

/** Spec 3 §4, §8 messages of a capture run. */
export const CAPTURE_MESSAGES = {
  inProgress: (state: string) => `Capturing configuration... (${state})`,
  success: 'Configuration captured successfully!',
  failed: (result: string) => `Capture failed: ${result}`,
  pollError: 'Error checking pipeline status',
  startFailed: (message: string) => `Failed to trigger capture: ${message}`,
  noRunId: 'Failed to start pipeline',
  notConfigured: 'Pipeline not configured. Please set the pipeline ID in the code.',
  loadClients: (message: string) => `Failed to load clients: ${message}`,
} as const;

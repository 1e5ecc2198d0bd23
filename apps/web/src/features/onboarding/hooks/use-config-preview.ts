// Spec 2 §4, §8, §9: the configuration info modal's preview, read from the repository: listing
// fills 0–50 %, downloads 50–100 %; at most 5 files per directory and 6 settings per file; a file
// that fails shows 'Failed to load'; a directory that cannot be read becomes one summary row.
import {
  PREVIEW_MAX_FILES_PER_DIRECTORY,
  previewProgress,
  previewSettings,
  type BaselineComponent,
  type PreviewSetting,
} from '@aegis/domain';
import { useEffect, useState } from 'react';

import { listBaselineFiles, readBaselineFile } from '../api/baseline-api';

interface PreviewFile {
  path: string;
  name: string;
  /** 'loaded', 'failed' (the file), or 'summary' (a directory that could not be read) */
  status: 'loaded' | 'failed' | 'summary';
  settings: PreviewSetting[];
  content: unknown;
  /** how many files the directory holds beyond the ones shown */
  more?: number;
}

export interface ConfigPreview {
  progress: number;
  loading: boolean;
  files: PreviewFile[];
  /** 'Failed to load configuration: {message}' */
  error: string | undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useConfigPreview(component: BaselineComponent | undefined): ConfigPreview {
  const [state, setState] = useState<ConfigPreview>({
    progress: 0,
    loading: false,
    files: [],
    error: undefined,
  });
  useEffect(() => {
    if (!component) return;
    const controller = new AbortController();
    const { signal } = controller;
    const run = async () => {
      setState({ progress: 0, loading: true, files: [], error: undefined });
      const paths = component.paths;
      const toLoad: { path: string; name: string }[] = [];
      const summaries: PreviewFile[] = [];
      const more = new Map<string, number>();
      for (const [index, path] of paths.entries()) {
        try {
          const listing = await listBaselineFiles(path, signal);
          const shown = listing.files.slice(0, PREVIEW_MAX_FILES_PER_DIRECTORY);
          toLoad.push(...shown);
          const hidden = listing.files.length - shown.length;
          if (hidden > 0 && shown.length > 0) more.set(shown[shown.length - 1]!.path, hidden);
        } catch (error) {
          if (signal.aborted) return;
          summaries.push({
            path,
            name: path.slice(path.lastIndexOf('/') + 1),
            status: 'summary',
            settings: [
              {
                name: 'Directory',
                value: 'Could not be read',
                rawProperty: path,
                description: message(error),
              },
            ],
            content: null,
          });
        }
        if (signal.aborted) return;
        setState((s) => ({ ...s, progress: previewProgress('listing', index + 1, paths.length) }));
      }
      const files: PreviewFile[] = [...summaries];
      for (const [index, file] of toLoad.entries()) {
        try {
          const { content } = await readBaselineFile(file.path, signal);
          files.push({
            ...file,
            status: 'loaded',
            settings: previewSettings(content),
            content,
            ...(more.has(file.path) ? { more: more.get(file.path) } : {}),
          });
        } catch {
          if (signal.aborted) return;
          files.push({ ...file, status: 'failed', settings: [], content: null });
        }
        if (signal.aborted) return;
        setState((s) => ({
          ...s,
          files: [...files],
          progress: previewProgress('downloading', index + 1, toLoad.length),
        }));
      }
      setState({ progress: 100, loading: false, files, error: undefined });
    };
    run().catch((error: unknown) => {
      if (signal.aborted) return;
      setState((s) => ({
        ...s,
        loading: false,
        error: `Failed to load configuration: ${message(error)}`,
      }));
    });
    return () => controller.abort();
  }, [component]);
  return state;
}

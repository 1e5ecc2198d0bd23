import { buildComparisonRows } from '../comparison/compare-trees';
import { MISSING } from '../comparison/constants';
import { toResourcePath } from '../comparison/paths';
import type { ComparisonResults, ConfigFile, ProgressCallback } from '../comparison/types';

import type { BackupComparisonCounts, BackupComparisonResults, BackupComparisonRow } from './types';

/** A client file as read from the repository: path (leading slash optional) and its text. */
export interface ClientTextFile {
  path: string;
  content: string;
}

/**
 * Client files to engine input: paths made relative to Clients/{client} (then to the resources
 * root when under M365Config/Resources), content parsed (null when not JSON).
 */
export function toBackupConfigFiles(
  client: string,
  files: readonly ClientTextFile[],
): ConfigFile[] {
  const prefix = `clients/${client.toLowerCase()}/`;
  const relative = (file: ClientTextFile) => {
    const path = file.path.replace(/\\/g, '/').replace(/^\/+/, '');
    return path.toLowerCase().startsWith(prefix) ? path.slice(prefix.length) : path;
  };
  // Aegis's own records beside the configuration (.capture-manifest.json, .accepted-deviations.json,
  // .matching-config.json) are not tenant configuration: a backup comparison never lists them.
  const isAegisRecord = (path: string) => !path.includes('/') && path.startsWith('.');
  return files
    .filter((f) => !isAegisRecord(relative(f)))
    .map((f) => {
      const path = relative(f);
      let content: unknown = null;
      try {
        content = JSON.parse(f.content) as unknown;
      } catch {
        content = null;
      }
      return { path: toResourcePath(path), content };
    });
}

function toBackupRows(results: ComparisonResults, swap: boolean, into: BackupComparisonResults) {
  for (const [category, files] of Object.entries(results)) {
    const target = (into[category] ??= {});
    for (const [name, rows] of Object.entries(files)) {
      const file = target[name] ? `${name} (current only)` : name;
      target[file] = rows.map((r): BackupComparisonRow => ({
        Name: r.Path,
        BackupValue: swap ? r.DiffValue : r.RefValue,
        CurrentValue: swap ? r.RefValue : r.DiffValue,
        Equal: r.Equal,
      }));
    }
  }
}

/**
 * A backup against the current configuration through the comparison engine (spec 3 §7): every
 * file of the backup, plus the files added since, grouped category → file → rows.
 */
export function compareBackup(
  backupFiles: readonly ConfigFile[],
  currentFiles: readonly ConfigFile[],
  onProgress?: ProgressCallback,
): BackupComparisonResults {
  const backupPaths = new Set(backupFiles.map((f) => toResourcePath(f.path)));
  const addedFiles = currentFiles.filter((f) => !backupPaths.has(toResourcePath(f.path)));
  const share = backupFiles.length + addedFiles.length || 1;
  const first = backupFiles.length / share;
  const results: BackupComparisonResults = {};
  toBackupRows(
    buildComparisonRows(backupFiles, currentFiles, {
      onProgress: onProgress && ((p) => onProgress(Math.floor(p * first))),
    }),
    false,
    results,
  );
  // Files only in the current configuration: compared the other way round, then swapped back.
  toBackupRows(
    buildComparisonRows(addedFiles, [], {
      onProgress: onProgress && ((p) => onProgress(Math.floor(100 * first + p * (1 - first)))),
    }),
    true,
    results,
  );
  return results;
}

/** Changes, additions and deletions over the rows of a backup comparison. */
export function countBackupChanges(results: BackupComparisonResults): BackupComparisonCounts {
  const counts: BackupComparisonCounts = { changes: 0, additions: 0, deletions: 0 };
  for (const files of Object.values(results)) {
    for (const rows of Object.values(files)) {
      for (const row of rows) {
        if (row.Equal) continue;
        if (row.BackupValue === MISSING) counts.additions += 1;
        else if (row.CurrentValue === MISSING) counts.deletions += 1;
        else counts.changes += 1;
      }
    }
  }
  return counts;
}

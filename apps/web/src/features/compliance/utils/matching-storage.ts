import {
  dedupeMatches,
  emptyMatchingConfig,
  type ConfirmedMatch,
  type MatchingConfig,
} from '@aegis/domain';

/** The browser's copy of a client's matching configuration (spec 3 §3: mirrored per client). */
export const matchingStorageKey = (client: string): string => `aegis.matchingConfig.${client}`;

/**
 * What the browser keeps: the mirror of the saved configuration, and the matches that could not be saved to the
 * repository (the spec's fallback: a failed remote save keeps the matches here).
 */
export interface StoredMatching {
  config: MatchingConfig;
  /** Matches saved only in this browser, waiting to reach the repository. */
  pending: ConfirmedMatch[];
}

export function readStoredMatching(client: string): StoredMatching {
  try {
    const raw = localStorage.getItem(matchingStorageKey(client));
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<StoredMatching>;
      if (parsed.config && Array.isArray(parsed.config.matches)) {
        return {
          config: { ...parsed.config, matches: dedupeMatches(parsed.config.matches).matches },
          pending: dedupeMatches(Array.isArray(parsed.pending) ? parsed.pending : []).matches,
        };
      }
    }
  } catch {
    // unreadable copy: start again from the repository
  }
  return { config: emptyMatchingConfig(client), pending: [] };
}

export function writeStoredMatching(client: string, stored: StoredMatching): void {
  try {
    localStorage.setItem(matchingStorageKey(client), JSON.stringify(stored));
  } catch {
    // storage full or disabled: the repository copy still holds
  }
}

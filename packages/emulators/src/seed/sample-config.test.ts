import { runStandardBaseline, workloadFor } from '@aegis/domain';
import { objectIdOf } from '@aegis/pipeline-tasks';
import { describe, expect, it } from 'vitest';

import {
  RESOURCES_ROOT,
  SAMPLE_CLIENTS,
  buildSampleRepo,
  generateSampleConfigRepo,
  sampleConfigHistory,
} from './sample-config';

const EXCLUDED = ['Descriptions', 'Office365', 'PowerPlatform', 'SecurityCompliance'];

describe('sample configuration repository', () => {
  const repo = generateSampleConfigRepo();
  const baseline = [...repo.keys()].filter(
    (p) => p.startsWith(`${RESOURCES_ROOT}/`) && !EXCLUDED.includes(p.split('/')[2] ?? ''),
  );

  it('is deterministic', () => {
    expect([...generateSampleConfigRepo()]).toEqual([...repo]);
  });

  it('has a baseline of at least 60 policies in at least 8 categories, plus the excluded folders', () => {
    expect(baseline.length).toBeGreaterThanOrEqual(60);
    expect(new Set(baseline.map((p) => p.split('/')[2])).size).toBeGreaterThanOrEqual(8);
    for (const folder of EXCLUDED) {
      expect([...repo.keys()].some((p) => p.startsWith(`${RESOURCES_ROOT}/${folder}/`))).toBe(true);
    }
    for (const p of baseline) expect(() => JSON.parse(repo.get(p) ?? '') as unknown).not.toThrow();
  });

  it('has clients that deviate in every way real tenants do', () => {
    expect(SAMPLE_CLIENTS.length).toBeGreaterThanOrEqual(4);
    const kinds = new Set(
      SAMPLE_CLIENTS.flatMap((c) => [...c.initial, ...c.later].map((d) => d.kind)),
    );
    expect([...kinds].sort()).toEqual(['change', 'clientOnly', 'missing', 'renamed', 'reordered']);
    for (const client of SAMPLE_CLIENTS) {
      expect(client.code).toMatch(/^[A-Z]{3}$/);
      const files = [...repo.keys()].filter((p) =>
        p.startsWith(`Clients/${client.code}/${RESOURCES_ROOT}/`),
      );
      expect(files.length).toBeGreaterThan(40);
    }
  });

  it('gives every object its own id within a folder, as the services do (a capture matches files by id)', () => {
    const ids = new Map<string, string>();
    const clashes: string[] = [];
    for (const [path, text] of repo) {
      const at = path.indexOf(`${RESOURCES_ROOT}/`);
      if (at < 0 || !path.endsWith('.json')) continue;
      const [category = '', kind = ''] = path.slice(at + RESOURCES_ROOT.length + 1).split('/');
      const workload = workloadFor(category, kind);
      if (!workload) continue;
      const id = objectIdOf(workload, JSON.parse(text) as Record<string, unknown>);
      if (!id) continue;
      const key = `${path.slice(0, path.lastIndexOf('/'))}:${id}`;
      const first = ids.get(key);
      if (first) clashes.push(`${first} and ${path}`);
      else ids.set(key, path);
    }
    expect(clashes).toEqual([]);
  });

  it('replays its history to the final state', () => {
    const history = sampleConfigHistory();
    const last = history[history.length - 1];
    expect(last && [...buildSampleRepo(last.stage)]).toEqual([...repo]);
    const days = history.map((s) => s.daysAgo);
    expect(days).toEqual([...days].sort((a, b) => b - a));
  });

  it('gives the standard baseline checks passing and failing clients', () => {
    const passRate = (code: string) => {
      const prefix = `Clients/${code}/`;
      const files = [...repo]
        .filter(([p]) => p.startsWith(prefix) && p.endsWith('.json'))
        .map(([p, text]) => ({ path: `/${p}`, content: JSON.parse(text) as unknown }));
      const result = runStandardBaseline(files);
      return result.passed / result.total;
    };
    const rates = Object.fromEntries(SAMPLE_CLIENTS.map((c) => [c.code, passRate(c.code)]));
    expect(rates['ABC']).toBeGreaterThanOrEqual(0.85);
    expect(rates['NWT']).toBeGreaterThanOrEqual(0.85);
    expect(rates['FAB']).toBeLessThan(rates['ABC'] ?? 0);
    expect(rates['WWI']).toBeLessThan(rates['ABC'] ?? 0);
  });
});

/**
 * Pipeline tasks benchmark (issue 11), through the emulator runner as `npm start` wires it:
 * - capture of a simulated tenant holding 1,000+ policies: Graph requests (goal ≤ 60 through
 *   paging and $batch, against ~1,000 one by one), admin-command and ARM requests, pushes to the
 *   repository (goal 1), and the run's wall time beside the time to serialise the same policies
 *   (the floor);
 * - deploy of every component to a tenant that has none of them: requests made and time.
 * Requests are counted at the emulators (a zero-latency fault rule counts its hits).
 */
import { BASELINE_COMPONENTS, workloadFor } from '@aegis/domain';
import { SAMPLE_PROJECTS, startTenantPipelines, TenantWorld } from '@aegis/emulators';

const PROJECT = SAMPLE_PROJECTS.tenantManagement;
const CAPTURE = 216;
const ONBOARD = 178;
const DEPLOY = 230;

export interface PipelineTasksBench {
  policies: number;
  capture: {
    graphRequests: number;
    otherTenantRequests: number;
    pushes: number;
    ms: number;
    readMs: number;
    pushMs: number;
    serialiseMs: number;
  };
  deploy: { components: number; tenantRequests: number; ms: number; result: string };
}

export async function runPipelineTasksBench(extraPolicies = 1000): Promise<PipelineTasksBench> {
  const world = new TenantWorld({ propagationDelayInMs: 0 });
  const pipelines = await startTenantPipelines(world);
  const { tenants, devops, emulator: devopsEmulator } = pipelines;
  const run = async (pipelineId: number, templateParameters: Record<string, string>) => {
    const started = await devops.runPipeline(PROJECT, pipelineId, { templateParameters });
    const t0 = performance.now();
    await devopsEmulator.runner.waitForIdle();
    const ms = performance.now() - t0;
    const finished = await devops.getRun(PROJECT, pipelineId, started.id);
    const log = (await devops.getRunLog(PROJECT, started.id)) ?? [];
    const error = log.find((line) => line.includes('##[error]'));
    const at = (text: string) => {
      const line = log.find((l) => l.includes(text));
      return line ? Date.parse(line.slice(0, 24)) : NaN;
    };
    return {
      ms,
      /** from the start of the task to the tenant read, and from there to the pushed commit */
      phases: { readMs: at('Read ') - at('##[section]'), pushMs: at('Pushed') - at('Read ') },
      result: `${finished?.result ?? 'unknown'}${error ? `: ${error.slice(error.indexOf('##[error]') + 9)}` : ''}`,
    };
  };
  const count = (pattern: string) =>
    tenants.faults.add({ kind: 'latency', latencyInMs: 0, pathPattern: pattern });
  const hits = (id: string) => tenants.faults.list().find((f) => f.id === id)?.hits ?? 0;

  try {
    // ABC's tenant plus 1,000 more Conditional Access and Intune policies, a quarter of them
    // Settings Catalog policies whose settings (a navigation property) the capture must read too.
    const abc = world.find('ABC')!;
    const state = world.state(abc.tenantId);
    const targets = [
      workloadFor('ConditionalAccess', 'Policy')!,
      workloadFor('Intune', 'DeviceConfiguration')!,
      workloadFor('Intune', 'ConfigurationPolicy')!,
      workloadFor('Intune', 'DeviceCompliancePolicy')!,
    ].map((workload) => {
      const items = state.workloadObjects(workload);
      return { items, template: [...items.values()][0]! };
    });
    for (let i = 0; i < extraPolicies; i += 1) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const { items, template } = targets[i % targets.length]!;
      const name = `BENCH-${String(i).padStart(4, '0')}-Policy`;
      const naming = 'name' in template ? 'name' : 'displayName';
      items.set(id, { ...structuredClone(template), id, [naming]: name });
    }
    const policies = [...state.config.values()].reduce((n, items) => n + items.size, 0);

    const graph = count('^/(v1\\.0|beta)/');
    const other = count('^/(adminapi|subscriptions)/');
    const pushes = devopsEmulator.faults.add({
      kind: 'latency',
      latencyInMs: 0,
      method: 'POST',
      pathPattern: '/_apis/git/repositories/[^/]+/pushes$',
    });
    const capture = await run(CAPTURE, { ClientCode: 'ABC' });
    if (!capture.result.startsWith('succeeded')) throw new Error(`capture ${capture.result}`);
    const t0 = performance.now();
    for (const items of state.config.values()) {
      for (const object of items.values()) JSON.stringify(object, null, 2);
    }
    const serialiseMs = performance.now() - t0;
    const captureFigures = {
      graphRequests: hits(graph),
      otherTenantRequests: hits(other),
      pushes: devopsEmulator.faults.list().find((f) => f.id === pushes)?.hits ?? 0,
      ms: capture.ms,
      readMs: capture.phases.readMs,
      pushMs: capture.phases.pushMs,
      serialiseMs,
    };
    tenants.faults.clear();

    // Deploy every component to a tenant that has none of them (onboarded first: its folder).
    const onboard = await run(ONBOARD, { ClientCode: 'TSP', Domain: 'tailspintoys.com' });
    if (!onboard.result.startsWith('succeeded')) throw new Error(`onboarding ${onboard.result}`);
    const all = count('^/');
    const components = Object.keys(BASELINE_COMPONENTS);
    const deploy = await run(DEPLOY, {
      ClientCode: 'TSP',
      Components: JSON.stringify(components),
    });
    return {
      policies,
      capture: captureFigures,
      deploy: {
        components: components.length,
        tenantRequests: hits(all),
        ms: deploy.ms,
        result: deploy.result,
      },
    };
  } finally {
    await pipelines.close();
  }
}

export function printPipelineTasksBench(b: PipelineTasksBench): void {
  const c = b.capture;
  console.log(`\nPipeline tasks (emulator runner against the tenant emulator)`);
  console.log(`  capture of a tenant with ${b.policies} policies:`);
  console.log(
    `    Graph requests        ${c.graphRequests} (goal ≤ 60; one by one would be ~${b.policies})`,
  );
  console.log(`    admin command + ARM   ${c.otherTenantRequests}`);
  console.log(`    pushes                ${c.pushes} (goal 1)`);
  console.log(
    `    wall time             ${c.ms.toFixed(0)} ms; serialising the same policies ${c.serialiseMs.toFixed(1)} ms (floor), ratio ${(c.ms / Math.max(c.serialiseMs, 0.1)).toFixed(0)}x`,
  );
  console.log(
    `    of which              reading the tenant and main's copy ${c.readMs} ms, laying out and pushing ${c.pushMs} ms`,
  );
  console.log(
    `  deploy of all ${b.deploy.components} components to a tenant without them (${b.deploy.result}):`,
  );
  console.log(`    tenant requests       ${b.deploy.tenantRequests}`);
  console.log(
    `    wall time             ${b.deploy.ms.toFixed(0)} ms (backup first, then every object)`,
  );
}

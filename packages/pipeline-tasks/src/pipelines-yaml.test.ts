// The YAML in pipelines/ is what a real organisation's agents run: each file must parse as YAML and
// carry what Azure Pipelines needs (pool, steps) plus every parameter its task reads, mapped into
// the step that runs `aegis-task <task>` with the job token.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  isSecretVariableName,
  newClientYaml,
  PIPELINE_CATALOGUE,
  SECRET_VARIABLE_NAMES,
  textOf,
} from '@aegis/domain';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { TASK_NAMES, TASK_PARAMETER_SCHEMAS, type TaskName } from './parameters';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const folder = path.join(rootDir, 'pipelines');
/** Agents use the Node.js major that Aegis's engines name (ADR 053). */
const NODE_MAJOR = /^>=(\d+)/.exec(
  (
    JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as {
      engines: { node: string };
    }
  ).engines.node,
)?.[1];

interface Step {
  task?: string;
  download?: string;
  artifact?: string;
  script?: string;
  checkout?: string;
  inputs?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface PipelineYaml {
  trigger?: unknown;
  parameters?: { name: string; type: string; default?: unknown }[];
  pool?: { vmImage?: string };
  resources?: { pipelines?: { pipeline: string; source: string; branch?: string }[] };
  steps?: Step[];
}

/**
 * The legacy onboarding pipelines (75, 55) run the same YAML as 178 and 191, but the portal sends
 * their inputs as variables (spec 2 §7): those inputs fall back to the variable of their name.
 */
const LEGACY_PIPELINES = {
  onboard: 'tenantOnboardingLegacy',
  'appdeploy-onboard': 'appDeployOnboardingLegacy',
} as const satisfies Partial<Record<TaskName, keyof typeof PIPELINE_CATALOGUE>>;
const LEGACY_VARIABLES: Partial<Record<TaskName, readonly string[]>> = {
  onboard: ['ClientCode', 'Domain', 'subscriptionForLogin'],
  'appdeploy-onboard': ['ClientCode', 'Domain'],
};

/**
 * Pipelines that run no `aegis-task`: the pull-request compliance gate (`aegis-compare`, ADR 035)
 * and the build of the task bundle the others download (ADR 053).
 */
const OTHER_PIPELINES = ['compliance-gate.yml', 'tasks-bundle.yml'];
/** How a task pipeline runs the bundle: the artifact of the `aegisTask` pipeline resource. */
const TASK_BUNDLE_PATH = '$(Pipeline.Workspace)/aegisTask/aegis-task/aegis-task.mjs';

describe('pipelines/*.yml', () => {
  it('has one file per task, the compliance gate and nothing else', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.yml'));
    expect(files.sort()).toEqual([...TASK_NAMES.map((t) => `${t}.yml`), ...OTHER_PIPELINES].sort());
  });

  // The shape Azure Pipelines accepts for a single-job pipeline (the YAML schema reference):
  // known top-level keys, one kind per step, tasks as Name@major, typed parameters whose
  // defaults fit their type, variables as groups or name/value pairs.
  const TOP_LEVEL = new Set([
    'name',
    'trigger',
    'pr',
    'schedules',
    'parameters',
    'variables',
    'resources',
    'pool',
    'steps',
    'jobs',
    'stages',
  ]);
  const STEP_KINDS = ['task', 'script', 'bash', 'pwsh', 'powershell', 'checkout', 'download'];
  const STEP_OPTIONS = new Set([
    'displayName',
    'name',
    'inputs',
    'env',
    'condition',
    'continueOnError',
    'enabled',
    'timeoutInMinutes',
    'workingDirectory',
    'fetchDepth',
    'clean',
    'persistCredentials',
    'path',
    'failOnStderr',
    'artifact',
    'patterns',
  ]);
  const PARAMETER_TYPES: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    boolean: (v) => typeof v === 'boolean',
    number: (v) => typeof v === 'number',
    object: (v) => typeof v === 'object',
  };

  it.each(readdirSync(folder).filter((f) => f.endsWith('.yml')))(
    '%s has the shape of an Azure Pipelines definition',
    (file) => {
      const doc = parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, unknown>;
      expect(Object.keys(doc).filter((k) => !TOP_LEVEL.has(k))).toEqual([]);
      expect(doc['steps'] ?? doc['jobs'] ?? doc['stages']).toBeDefined();
      for (const parameter of (doc['parameters'] ?? []) as Record<string, unknown>[]) {
        expect(
          Object.keys(parameter).filter(
            (k) => !['name', 'type', 'default', 'displayName', 'values'].includes(k),
          ),
        ).toEqual([]);
        expect(String(parameter['name'])).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
        const fits = PARAMETER_TYPES[String(parameter['type'])];
        expect({ parameter: parameter['name'], knownType: fits !== undefined }).toEqual({
          parameter: parameter['name'],
          knownType: true,
        });
        // a parameter without a default is required; a default must fit the declared type
        const defaultFits = !('default' in parameter) || (fits?.(parameter['default']) ?? false);
        expect({ parameter: parameter['name'], defaultFits }).toEqual({
          parameter: parameter['name'],
          defaultFits: true,
        });
      }
      for (const variable of (doc['variables'] ?? []) as Record<string, unknown>[]) {
        const keys = Object.keys(variable).sort();
        expect([['group'], ['name', 'value']]).toContainEqual(keys);
      }
      const nodeVersions = ((doc['steps'] ?? []) as Step[])
        .filter((step) => step.task === 'NodeTool@0')
        .map((step) => step.inputs?.['versionSpec']);
      expect(nodeVersions.filter((version) => version !== `${NODE_MAJOR}.x`)).toEqual([]);
      for (const step of (doc['steps'] ?? []) as Record<string, unknown>[]) {
        const kinds = STEP_KINDS.filter((k) => k in step);
        expect({ step, kinds: kinds.length }).toEqual({ step, kinds: 1 });
        const others = Object.keys(step).filter(
          (k) => !STEP_KINDS.includes(k) && !STEP_OPTIONS.has(k),
        );
        expect(others).toEqual([]);
        expect(textOf(step['task'] ?? 'NotATask@0')).toMatch(/^[A-Za-z][A-Za-z0-9]*@\d+$/);
        for (const value of Object.values((step['env'] ?? {}) as Record<string, unknown>)) {
          // an env value is a string: a macro, a template expression or text
          expect(typeof value).toBe('string');
        }
      }
    },
  );

  it('the compliance gate runs on pull requests and publishes JUnit results', () => {
    const doc = parse(readFileSync(path.join(folder, 'compliance-gate.yml'), 'utf8')) as Omit<
      PipelineYaml,
      'steps'
    > & {
      pr?: { branches?: { include?: string[] } };
      steps?: (Step & { bash?: string })[];
    };
    expect(doc.trigger).toBe('none');
    expect(doc.pr?.branches?.include).toContain('main');
    const steps = doc.steps ?? [];
    const compare = steps.find((s) => (s.bash ?? s.script ?? '').includes('aegis-compare'));
    expect(compare?.bash ?? compare?.script).toContain('--junit');
    const publish = steps.find((s) => s.task === 'PublishTestResults@2');
    expect(publish?.inputs?.['testResultsFormat']).toBe('JUnit');
  });

  it.each(TASK_NAMES)('%s.yml is a runnable Azure Pipelines definition', (task) => {
    const doc = parse(readFileSync(path.join(folder, `${task}.yml`), 'utf8')) as PipelineYaml;
    expect(doc.trigger).toBe('none');
    expect(doc.pool?.vmImage).toMatch(/^(ubuntu|windows)-latest$/);
    expect(Array.isArray(doc.steps) && doc.steps.length).toBeGreaterThan(0);
    for (const parameter of doc.parameters ?? []) {
      expect(['string', 'boolean', 'number', 'object']).toContain(parameter.type);
    }
    // every input of the task is a pipeline parameter
    const names = (doc.parameters ?? []).map((p) => p.name);
    expect(names.sort()).toEqual(Object.keys(TASK_PARAMETER_SCHEMAS[task].shape).sort());
    // the bundle comes from the task-bundle pipeline's artifact and runs under the NodeTool's node
    expect(doc.resources?.pipelines).toContainEqual(
      expect.objectContaining({ pipeline: 'aegisTask', branch: 'main' }),
    );
    const steps = doc.steps ?? [];
    const download = steps.findIndex((s) => s.download === 'aegisTask');
    expect(steps[download]?.artifact).toBe('aegis-task');
    const node = steps.findIndex((s) => s.task === 'NodeTool@0');
    expect(String(steps[node]?.inputs?.['versionSpec'])).toBe(`${NODE_MAJOR}.x`);
    // `node <bundle> <task>`, then its flags (the fleet rebuild has none)
    const command = `node "${TASK_BUNDLE_PATH}" ${task}`;
    const runIndex = steps.findIndex((s) =>
      textOf(s.inputs?.['inlineScript'] ?? s.script ?? '')
        .split('\n')
        .some((line) => line.trim() === command || line.trim().startsWith(`${command} `)),
    );
    expect(runIndex, 'a step runs the task').toBeGreaterThan(Math.max(download, node));
    const run = steps[runIndex];
    expect(JSON.stringify(steps)).not.toMatch(/npm ci|tsx/);
    expect(run?.env?.['SYSTEM_ACCESSTOKEN']).toBe('$(System.AccessToken)');
    // a service connection is resolved when the run is compiled: a template expression, not $(…)
    expect(String(run?.inputs?.['azureSubscription'])).toMatch(/^\$\{\{ variables\.\w+ \}\}$/);
    const mapped = Object.values(run?.env ?? {}).map(String);
    const legacy = LEGACY_VARIABLES[task] ?? [];
    for (const name of names) {
      expect(mapped).toContain(
        legacy.includes(name)
          ? `\${{ coalesce(parameters.${name}, '$(${name})') }}`
          : `\${{ parameters.${name} }}`,
      );
    }
  });

  it.each(Object.entries(LEGACY_PIPELINES) as [keyof typeof LEGACY_PIPELINES, string][])(
    '%s.yml also runs the legacy pipeline from its queue-time variables, never mapping a secret',
    (task) => {
      const key = LEGACY_PIPELINES[task];
      const text = readFileSync(path.join(folder, `${task}.yml`), 'utf8');
      const doc = parse(text) as PipelineYaml;
      const entry = PIPELINE_CATALOGUE[key];
      // the legacy run sends no template parameters: every parameter must have a default
      for (const parameter of doc.parameters ?? []) expect(parameter.default).toBeDefined();
      const inputs = Object.keys(TASK_PARAMETER_SCHEMAS[task].shape);
      const plain = entry.variables.filter((v) => !isSecretVariableName(v));
      expect(plain.every((v) => inputs.includes(v))).toBe(true);
      expect(LEGACY_VARIABLES[task]).toEqual(plain);
      for (const secret of SECRET_VARIABLE_NAMES) expect(text).not.toContain(`$(${secret})`);
    },
  );

  // Issue 26: a template expression inside a script or its arguments is pasted into the script's
  // text before it runs, so a parameter's value could become code. Free-text parameters reach
  // scripts through `env:`; only a parameter limited to fixed `values:` may appear in the text.
  const SCRIPT_KEYS = new Set([
    'script',
    'bash',
    'pwsh',
    'powershell',
    'arguments',
    'inlineScript',
  ]);
  const spliced = (node: unknown, found: string[] = []): string[] => {
    if (Array.isArray(node)) for (const item of node) spliced(item, found);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (SCRIPT_KEYS.has(key) && typeof value === 'string') {
          for (const [expression] of value.matchAll(/\$\{\{[^}]*\}\}/g)) found.push(expression);
        } else spliced(value, found);
      }
    }
    return found;
  };
  const pipelineTexts = [
    ...readdirSync(folder)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => [f, readFileSync(path.join(folder, f), 'utf8')] as const),
    ['client app deployment YAML (newClientYaml)', newClientYaml('TSP')] as const,
  ];

  it.each(pipelineTexts)('%s splices no free-text parameter into a script', (_, text) => {
    const doc = parse(text) as { parameters?: { name: string; values?: unknown[] }[] };
    const fixed = new Set(
      (doc.parameters ?? []).filter((p) => Array.isArray(p.values)).map((p) => p.name),
    );
    const free = spliced(doc).filter((expression) =>
      [...expression.matchAll(/parameters\.(\w+)/g)].some((m) => !fixed.has(m[1]!)),
    );
    expect(free).toEqual([]);
    expect(spliced(doc).join(' ')).not.toMatch(/AppList/);
  });
});

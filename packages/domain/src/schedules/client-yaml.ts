// A client's app deployment pipeline YAML (Client_Yaml_Files/{folder}-azure-pipelines.yml, spec 2
// §7): its weekly schedules and its app list (the AppList parameter's default), read and rewritten
// with the `yaml` package's document model so comments and everything else stay as they were.
import { isMap, isSeq, parseDocument, Scalar, visit, YAMLMap, YAMLSeq, type Document } from 'yaml';

import { appNameProblem } from '../app-tables/app-name';
import { InputError } from '../errors';

/** A schedule as Azure Pipelines reads it from `schedules:` (cron in UTC). */
export interface YamlSchedule {
  cron: string;
  displayName?: string;
  branches: { include: string[]; exclude: string[] };
  always: boolean;
}

/** The parameter whose default lists the apps the pipeline deploys. */
export const APP_LIST_PARAMETER = 'AppList';

/**
 * The environment variable the deploy step hands the app list to its script in: a value in the
 * environment is data to PowerShell, where text spliced into `arguments` would be parsed as code.
 */
export const APP_LIST_ENV = 'APP_LIST';
const APP_LIST_ENV_VALUE = `\${{ convertToJson(parameters.${APP_LIST_PARAMETER}) }}`;
/** How YAML written before ADR 056 spliced the list into the script's arguments. */
const SPLICED_APP_LIST = /'\$\{\{\s*convertToJson\(parameters\.AppList\)\s*\}\}'/;

/**
 * A new client's app deployment pipeline YAML, as onboarding writes it and the sample data holds
 * it: an AppList object parameter (empty; 'Update YAML with Apps' fills it from the client's
 * table), the client's code and table as variables, and a weekly schedule when given.
 */
export function newClientYaml(
  code: string,
  schedule?: { readonly cron: string; readonly displayName: string },
): string {
  return [
    `# App deployment pipeline for ${code} (managed by Aegis)`,
    'trigger: none',
    ...(schedule
      ? [
          'schedules:',
          `- cron: "${schedule.cron}"`,
          `  displayName: ${schedule.displayName}`,
          '  branches:',
          '    include:',
          '    - main',
          '  always: true',
        ]
      : []),
    'parameters:',
    `- name: ${APP_LIST_PARAMETER}`,
    '  type: object',
    '  default: []',
    'pool:',
    '  vmImage: windows-latest',
    'variables:',
    `  ClientCode: ${code}`,
    `  AppTable: ${code}WorkstationApps`,
    'stages:',
    '- stage: Deploy',
    '  jobs:',
    '  - job: DeployApps',
    '    steps:',
    '    - task: PowerShell@2',
    '      displayName: Deploy workstation apps',
    '      inputs:',
    '        filePath: scripts/Deploy-WorkstationApps.ps1',
    `        arguments: -ClientCode ${code} -AppList $env:${APP_LIST_ENV}`,
    '      env:',
    `        ${APP_LIST_ENV}: ${APP_LIST_ENV_VALUE}`,
    '',
  ].join('\n');
}

/**
 * Writes the document back in the file's own sequence style: `key:\n- item` (compact, as most
 * pipeline files are written) or `key:\n  - item`, so lines the change does not touch stay as
 * they were.
 */
function print(doc: Document.Parsed, original: string): string {
  const compact = /^[\w-]+:[ \t]*\r?\n-[ \t]/m.test(original);
  return doc.toString({ indentSeq: !compact });
}

function parse(text: string): Document.Parsed {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) {
    throw new InputError(`The pipeline YAML is not valid: ${doc.errors[0]!.message}`, 'yaml');
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new InputError('The pipeline YAML must be a mapping at the top level', 'yaml');
  }
  return doc;
}

function strings(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return [value];
  return [];
}

/** The schedules of a pipeline YAML as Azure Pipelines reads them (always defaults to false). */
export function readSchedules(text: string): YamlSchedule[] {
  const json = parse(text).toJS() as { schedules?: unknown } | null;
  const list = Array.isArray(json?.schedules) ? (json.schedules as unknown[]) : [];
  return list.flatMap((item): YamlSchedule[] => {
    if (!item || typeof item !== 'object') return [];
    const entry = item as Record<string, unknown>;
    if (typeof entry['cron'] !== 'string') return [];
    const branches = entry['branches'];
    const include =
      branches && typeof branches === 'object' && !Array.isArray(branches)
        ? strings((branches as Record<string, unknown>)['include'])
        : strings(branches);
    const exclude =
      branches && typeof branches === 'object' && !Array.isArray(branches)
        ? strings((branches as Record<string, unknown>)['exclude'])
        : [];
    return [
      {
        cron: entry['cron'],
        ...(typeof entry['displayName'] === 'string' ? { displayName: entry['displayName'] } : {}),
        branches: { include, exclude },
        always: entry['always'] === true,
      },
    ];
  });
}

/**
 * The YAML with `schedules:` holding one entry, the given cron and display name (spec 2 §9: an
 * update rewrites the YAML with a single entry). Branches and `always` stay as the file's first
 * schedule had them; a file without one gets branches include main and always true.
 */
export function withSingleSchedule(
  text: string,
  schedule: { cron: string; displayName: string },
): string {
  const doc = parse(text);
  const previous = readSchedules(text)[0];
  const include =
    previous && previous.branches.include.length > 0 ? previous.branches.include : ['main'];
  const branches: Record<string, string[]> = { include };
  if (previous && previous.branches.exclude.length > 0)
    branches['exclude'] = previous.branches.exclude;
  const cron = doc.createNode(schedule.cron);
  cron.type = Scalar.QUOTE_DOUBLE;
  const entry = doc.createNode({
    cron,
    displayName: schedule.displayName,
    branches,
    always: previous ? previous.always : true,
  });
  const seq = new YAMLSeq();
  seq.items.push(entry);
  if (doc.contents === null) doc.contents = new YAMLMap() as never;
  const root = doc.contents as unknown as YAMLMap;
  if (root.has('schedules')) {
    root.set('schedules', seq);
  } else {
    // after trigger/pr when present, as pipeline files usually order them
    const index = root.items.findIndex((pair) => {
      const key = (pair.key as { value?: unknown } | null)?.value ?? pair.key;
      return key !== 'trigger' && key !== 'pr' && key !== 'name';
    });
    const pair = doc.createPair('schedules', seq);
    if (index === -1) root.items.push(pair);
    else root.items.splice(index, 0, pair);
  }
  return print(doc, text);
}

function appListNode(doc: Document.Parsed): YAMLMap | undefined {
  const parameters = (doc.contents as unknown as YAMLMap | null)?.get('parameters');
  if (!isSeq(parameters)) return undefined;
  return parameters.items.find(
    (item): item is YAMLMap => isMap(item) && item.get('name') === APP_LIST_PARAMETER,
  );
}

/** The apps the pipeline deploys: the AppList parameter's default (empty when absent). */
export function readAppList(text: string): string[] {
  const node = appListNode(parse(text));
  const value = node?.get('default');
  return isSeq(value) ? value.toJSON().map(String) : [];
}

/**
 * Moves an app list spliced into a step's `arguments` (YAML written before ADR 056) into the
 * step's environment, so the value reaches the script as data.
 */
function handAppListThroughEnv(doc: Document.Parsed): void {
  visit(doc, {
    Map(_, step) {
      const inputs = step.get('inputs');
      if (!isMap(inputs)) return;
      const args = inputs.get('arguments');
      if (typeof args !== 'string' || !SPLICED_APP_LIST.test(args)) return;
      inputs.set('arguments', args.replace(SPLICED_APP_LIST, `$env:${APP_LIST_ENV}`));
      const env = step.get('env');
      if (isMap(env)) env.set(APP_LIST_ENV, APP_LIST_ENV_VALUE);
      else step.set('env', doc.createNode({ [APP_LIST_ENV]: APP_LIST_ENV_VALUE }));
    },
  });
}

/**
 * The YAML with the AppList parameter's default set to `apps` (the parameter is added, as an
 * object parameter, when the file has none) and the list handed to the deploy script through
 * its environment. Nothing else in the file changes. An app name outside the rule of ADR 056
 * is refused (InputError on AppName) rather than written.
 */
export function withAppList(text: string, apps: readonly string[]): string {
  for (const app of apps) {
    const problem = appNameProblem(app);
    if (problem) {
      throw new InputError(
        `AppName '${app}' ${problem}: rename the app in the table, then update the YAML.`,
        'AppName',
      );
    }
  }
  const doc = parse(text);
  handAppListThroughEnv(doc);
  if (doc.contents === null) doc.contents = new YAMLMap() as never;
  const root = doc.contents as unknown as YAMLMap;
  const list = doc.createNode([...apps]) as YAMLSeq;
  const node = appListNode(doc);
  if (node) {
    node.set('default', list);
  } else {
    const parameter = doc.createNode({ name: APP_LIST_PARAMETER, type: 'object' }) as YAMLMap;
    parameter.set('default', list);
    const parameters = root.get('parameters');
    if (isSeq(parameters)) parameters.items.push(parameter);
    else root.set('parameters', doc.createNode([parameter]));
  }
  return print(doc, text);
}

/** The apps to deploy: AppName of every row whose Status is Enabled, in table order, once each. */
export function enabledAppNames(rows: readonly Readonly<Record<string, unknown>>[]): string[] {
  const names: string[] = [];
  for (const row of rows) {
    if (row['Status'] !== 'Enabled') continue;
    const app = row['AppName'];
    const name = typeof app === 'string' ? app.trim() : '';
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** What regenerating the app list changes: apps added and removed (each in list order). */
export function appListChanges(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[]; unchanged: string[] } {
  return {
    added: after.filter((app) => !before.includes(app)),
    removed: before.filter((app) => !after.includes(app)),
    unchanged: after.filter((app) => before.includes(app)),
  };
}

/**
 * The defaults of a pipeline's runtime parameters, as text (what a scheduled run, which nobody
 * fills in, runs with); parameters without a default are left out.
 */
export function readParameterDefaults(text: string): Record<string, string> {
  const json = parse(text).toJS() as { parameters?: unknown } | null;
  const defaults: Record<string, string> = {};
  if (!Array.isArray(json?.parameters)) return defaults;
  for (const parameter of json.parameters as unknown[]) {
    if (!parameter || typeof parameter !== 'object') continue;
    const { name, default: value } = parameter as { name?: unknown; default?: unknown };
    if (typeof name !== 'string' || value === undefined || value === null) continue;
    defaults[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return defaults;
}

/** Whether a schedule's branch filters include a branch (`main`, `refs/heads/main`, `*`, `rel/*`). */
export function scheduleIncludesBranch(schedule: YamlSchedule, branch: string): boolean {
  const short = branch.replace(/^refs\/heads\//, '');
  const matches = (pattern: string) => {
    const p = pattern.replace(/^refs\/heads\//, '');
    if (p.endsWith('*')) return short.startsWith(p.slice(0, -1));
    return p === short;
  };
  return schedule.branches.include.some(matches) && !schedule.branches.exclude.some(matches);
}

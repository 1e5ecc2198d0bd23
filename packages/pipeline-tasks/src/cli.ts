// `aegis-task <task> --client ABC [--excluded-properties '["id"]'] …`: what a pipeline step runs.
import { parseArgs } from 'node:util';

import type { AgentOptions } from './agent';
import { readTaskEnvironment } from './config';
import { agentLog, type TaskLog } from './log';
import { CLI_FLAGS, TASK_NAMES, type TaskName } from './parameters';
import type { TaskContext } from './tasks/context';
import { runTask } from './tasks/run-task';

export const USAGE = `Usage: aegis-task <${TASK_NAMES.join('|')}> --client ABC [options]
  --excluded-properties, --excluded-paths  JSON array or comma separated (capture)
  --baseline-version 1.0.0                 capture metadata
  --manual-run true|false                  backup: manual or scheduled
  --components '["Device Compliance"]'     deploy / offboard (deploy: empty = whole baseline)
  --restore-from backup/ABC/… --policies '["Cat/Kind/Policy.json"]'   deploy: those policies from a backup
  --commit <40 hex digits> --rollout-claim <token>   deploy: a rollout's planned commit, its claim
  --domain, --tenant-id, --subscription, --region, --enroll-in-power-support   onboard
  --domain, --client-tenant-id, --enterprise-app-id                            appdeploy-onboard
  --kind due|quick|full                    drift-check (no --client: every client that is due)
  fleet-rebuild takes no --client: it stores every client's fleet summary (AEGIS_TABLES_URL)
  customer-reports takes no --client: it sends each scheduled client's due report
    (AEGIS_TABLES_URL, AEGIS_BLOBS_URL, AEGIS_MAIL_SENDER)
Configuration comes from the agent's environment (README: "Pipelines in a real organisation").`;

export interface CliIo {
  env: NodeJS.ProcessEnv;
  write(line: string): void;
  /** builds the context (default: from the agent's environment) */
  context?(log: TaskLog): TaskContext;
  /** options of the context built from the agent's environment */
  agent?: AgentOptions;
}

/** Runs the command line; returns the exit code (0 success or --help, 1 task failure, 2 usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [task, ...rest] = argv;
  if (task === '--help' || task === '-h') {
    io.write(USAGE);
    return 0;
  }
  if (!task || !(TASK_NAMES as readonly string[]).includes(task)) {
    io.write(USAGE);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...rest],
      options: Object.fromEntries(
        Object.keys(CLI_FLAGS).map((f) => [f, { type: 'string' as const }]),
      ),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    io.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const parameters: Record<string, string> = {};
  for (const [flag, name] of Object.entries(CLI_FLAGS)) {
    const value = values[flag];
    if (typeof value === 'string') parameters[name] = value;
  }
  const log = agentLog((line) => io.write(line));
  try {
    const context = io.context
      ? io.context(log)
      : (await import('./agent')).agentContext(readTaskEnvironment(io.env), log, io.agent);
    await runTask(task as TaskName, parameters, context);
    return 0;
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

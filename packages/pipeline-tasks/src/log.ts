// What a task writes to its run log. On an Azure Pipelines agent these are stdout lines with the
// agent's logging commands (##[section], ##vso[task.logissue]); the emulator's runner collects the
// same lines into the run's log.

export interface TaskLog {
  info(line: string): void;
  section(title: string): void;
  warning(message: string): void;
  error(message: string): void;
  /**
   * The task did its work but something waits (e.g. a Multi Admin Approval): the step ends
   * "succeeded with issues", so the run shows as partially succeeded rather than as a success.
   */
  succeededWithIssues(message: string): void;
}

/** Lines as an Azure Pipelines agent understands them. */
export function agentLog(write: (line: string) => void): TaskLog {
  return {
    info: (line) => write(line),
    section: (title) => write(`##[section]${title}`),
    warning: (message) => write(`##vso[task.logissue type=warning]${message}`),
    error: (message) => write(`##vso[task.logissue type=error]${message}`),
    succeededWithIssues: (message) => {
      write(`##vso[task.logissue type=warning]${message}`);
      write(`##vso[task.complete result=SucceededWithIssues;]${message}`);
    },
  };
}

/** A task's failure: the message is what the run log and the portal show. */
export class TaskError extends Error {
  override readonly name = 'TaskError';
}

export function isTaskError(error: unknown): error is TaskError {
  return error instanceof Error && error.name === 'TaskError';
}

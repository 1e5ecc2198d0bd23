// How a run log's lines read (Azure Pipelines' logging commands): the agent keeps `##[section]`,
// `##[error]`, `##[warning]`… in the log it stores, and a task may write `##vso[task.logissue]`,
// which becomes an error or warning. A screen shows the kind, not the command.

export type RunLogLineKind = 'section' | 'error' | 'warning' | 'command' | 'debug' | 'plain';

export interface RunLogLine {
  readonly kind: RunLogLineKind;
  readonly text: string;
}

const FORMATTED = /^##\[(section|error|warning|command|debug|group|endgroup)\](.*)$/s;
const LOG_ISSUE = /^##vso\[task\.logissue\s+([^\]]*)\](.*)$/s;

/** What one stored log line is, with the logging command taken off its text. */
export function readRunLogLine(text: string): RunLogLine {
  const formatted = FORMATTED.exec(text);
  if (formatted) {
    const [, command = '', rest = ''] = formatted;
    if (command === 'group') return { kind: 'section', text: rest };
    if (command === 'endgroup') return { kind: 'plain', text: rest };
    return { kind: command as RunLogLineKind, text: rest };
  }
  const issue = LOG_ISSUE.exec(text);
  if (issue) {
    const [, properties = '', rest = ''] = issue;
    const type = /(?:^|;)\s*type=(error|warning)\s*(?:;|$)/i.exec(properties)?.[1]?.toLowerCase();
    if (type === 'error' || type === 'warning') return { kind: type, text: rest };
  }
  return { kind: 'plain', text };
}

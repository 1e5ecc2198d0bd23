import { describe, expect, it } from 'vitest';

import { readRunLogLine } from './run-log-lines';

describe('readRunLogLine', () => {
  it('takes the formatting command off sections, errors, warnings, commands and debug lines', () => {
    expect(readRunLogLine('##[section]Manual backup of NWT')).toEqual({
      kind: 'section',
      text: 'Manual backup of NWT',
    });
    expect(readRunLogLine('##[error]Graph answered 403')).toEqual({
      kind: 'error',
      text: 'Graph answered 403',
    });
    expect(readRunLogLine('##[warning]Slow')).toEqual({ kind: 'warning', text: 'Slow' });
    expect(readRunLogLine('##[command]/usr/bin/node task.js')).toEqual({
      kind: 'command',
      text: '/usr/bin/node task.js',
    });
    expect(readRunLogLine('##[debug]x=1')).toEqual({ kind: 'debug', text: 'x=1' });
    expect(readRunLogLine('##[group]Install')).toEqual({ kind: 'section', text: 'Install' });
    expect(readRunLogLine('##[endgroup]')).toEqual({ kind: 'plain', text: '' });
  });

  it('reads task.logissue by its type, whatever other properties it carries', () => {
    expect(readRunLogLine('##vso[task.logissue type=error]No tenant')).toEqual({
      kind: 'error',
      text: 'No tenant',
    });
    expect(
      readRunLogLine('##vso[task.logissue sourcepath=a.ts;type=warning;linenumber=3]Pending'),
    ).toEqual({ kind: 'warning', text: 'Pending' });
  });

  it('leaves every other line as it is, including look-alikes', () => {
    for (const text of [
      'Read 95 policies',
      '##[unknown]x',
      ' ##[error]indented',
      '##vso[task.setvariable variable=a]1',
      '##vso[task.logissue type=fatal]x',
      '',
    ]) {
      expect(readRunLogLine(text)).toEqual({ kind: 'plain', text });
    }
  });
});

import { useState } from 'react';

import type { TableMessage } from './table-message-bar';

/**
 * The one message bar of a table screen: the result of the last request, or the alert of a check
 * that failed when the user tried an action. A failed check is run again on every render, so
 * its alert follows the state it is about: it updates while the cause changes and disappears as
 * soon as the user has fixed it, without another click.
 */
export function useTableAlert<Check extends string>(
  checks: Record<Check, () => string | undefined>,
) {
  const [result, setResult] = useState<TableMessage>();
  const [failed, setFailed] = useState<Check>();
  const problem = failed === undefined ? undefined : checks[failed]();
  const message: TableMessage | undefined =
    problem === undefined ? result : { intent: 'warning', text: problem };

  return {
    message,
    /** The check whose alert is shown, if any (e.g. to highlight the fields it is about). */
    failing: problem === undefined ? undefined : failed,
    /** Runs a check before an action: false (and its alert shown) when the action must not run. */
    passes(check: Check): boolean {
      const found = checks[check]();
      setFailed(found === undefined ? undefined : check);
      if (found !== undefined) setResult(undefined);
      return found === undefined;
    },
    /** Shows a request's result (success or error) in place of any alert. */
    show(next: TableMessage) {
      setFailed(undefined);
      setResult(next);
    },
    clear() {
      setFailed(undefined);
      setResult(undefined);
    },
  };
}

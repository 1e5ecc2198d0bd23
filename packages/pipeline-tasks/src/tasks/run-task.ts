// One entry point for every task: validate the run's parameters, run, and turn any failure into
// the run's error message.
import { parseTaskParameters, type TaskName } from '../parameters';

import { runBackup } from './backup';
import { runCapture } from './capture';
import type { TaskContext } from './context';
import { runCustomerReports } from './customer-reports';
import { runDeploy } from './deploy';
import { runDriftCheck } from './drift-check';
import { runFleetRebuild } from './fleet-rebuild';
import { runOffboard } from './offboard';
import { runAppDeployOnboard, runOnboard } from './onboard';
import { runObjectRestore } from './restore-objects';

export async function runTask(
  task: TaskName,
  parameters: Readonly<Record<string, string | undefined>>,
  context: TaskContext,
): Promise<unknown> {
  switch (task) {
    case 'capture':
      return runCapture(context, parseTaskParameters('capture', parameters));
    case 'backup':
      return runBackup(context, parseTaskParameters('backup', parameters));
    case 'deploy': {
      const deploy = parseTaskParameters('deploy', parameters);
      return deploy.RestoreFrom
        ? runObjectRestore(context, {
            client: deploy.ClientCode,
            backupTag: deploy.RestoreFrom,
            policies: deploy.Policies,
          })
        : runDeploy(context, deploy);
    }
    case 'offboard':
      return runOffboard(context, parseTaskParameters('offboard', parameters));
    case 'onboard':
      return runOnboard(context, parseTaskParameters('onboard', parameters));
    case 'appdeploy-onboard':
      return runAppDeployOnboard(context, parseTaskParameters('appdeploy-onboard', parameters));
    case 'drift-check':
      return runDriftCheck(context, parseTaskParameters('drift-check', parameters));
    case 'fleet-rebuild':
      parseTaskParameters('fleet-rebuild', parameters);
      return runFleetRebuild(context);
    case 'customer-reports':
      parseTaskParameters('customer-reports', parameters);
      return runCustomerReports(context);
  }
}

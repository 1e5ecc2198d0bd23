import { CaptureManagementPage } from '../features/capture/capture-management-page';
import { BaselineComplianceView } from '../features/compliance/baseline-compliance-view';

/**
 * Capture management composes two features: the capture review (features/capture) and the
 * Baseline Compliance tab (features/compliance). Features never import each other, so the app
 * plugs the compliance view into the page's `renderBaseline` slot here.
 */
export function CaptureManagementRoute() {
  return (
    <CaptureManagementPage
      renderBaseline={(client) => <BaselineComplianceView key={client} client={client} />}
    />
  );
}

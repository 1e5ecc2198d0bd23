import { CaptureManagementPage } from '../features/capture/capture-management-page';

/**
 * Capture management composes two features: the capture review (features/capture) and the
 * Baseline Compliance tab (features/compliance). Features never import each other, so the app
 * plugs the compliance view into the page's `renderBaseline` slot here.
 */
export function CaptureManagementRoute() {
  return <CaptureManagementPage />;
}

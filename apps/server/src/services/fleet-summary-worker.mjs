// Entry of a fleet summary worker thread (ADR 044, ADR 075). The server's code is TypeScript run by
// tsx; a worker thread started without the parent's flags registers tsx's loader itself, then
// hands piscina the worker's task function.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./fleet-summary-worker.ts');
export default worker.default;

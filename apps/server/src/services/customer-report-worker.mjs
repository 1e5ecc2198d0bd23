// Entry of a customer report worker thread (ADR 072). The server's code is TypeScript run by tsx; a
// worker thread started without the parent's flags registers tsx's loader itself, then loads it.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./customer-report-worker.ts');

export default worker.default;

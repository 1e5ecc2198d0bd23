// Entry of a fleet summary worker thread (ADR 044). The server's code is TypeScript run by tsx; a
// worker thread started without the parent's flags registers tsx's loader itself, then loads it.
import { register } from 'tsx/esm/api';

register();
await import('./fleet-summary-worker.ts');

#!/usr/bin/env tsx
import { runCli } from './run';

// `aegis-compare … | head` closes the pipe early: that is the reader's choice, not a failure.
// Stop writing, but still finish and exit with the gate's code.
let readerGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  readerGone = true;
});

process.exitCode = await runCli(process.argv.slice(2), {
  out: (l) => {
    if (!readerGone) process.stdout.write(`${l}\n`);
  },
  err: (l) => process.stderr.write(`${l}\n`),
});

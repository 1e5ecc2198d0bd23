#!/usr/bin/env tsx
import { runCli } from './run';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
});

#!/usr/bin/env -S npx tsx
import { runCli } from './cli';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  write: (line) => process.stdout.write(`${line}\n`),
});

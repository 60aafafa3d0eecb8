#!/usr/bin/env node
/**
 * The `merchant-wallet` bin. Everything but process wiring lives in `runCli`.
 *
 * @packageDocumentation
 */
import { processIo } from './io.js';
import { runCli } from './run.js';

// A reader such as `head` that stops early closes the pipe; that ends the output, not in a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// `exitCode` rather than `exit()`, so buffered output to a pipe is flushed before the process ends.
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});

/**
 * The journal part of the bench alone: `npm run bench:journal` (builds first). Prints the table of
 * payments per second and writes per payment by journal, latency and `onSettled`.
 */
import { journalTable, measureJournalOverhead } from './journal-overhead.js';

process.stdout.write(journalTable(await measureJournalOverhead()));

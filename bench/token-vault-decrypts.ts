// Prints `vault.tokenFor` calls per second; bench/token-vault.ts runs it pinned to one core.
import { tokenForPerSecond } from './token-vault.js';

process.stdout.write(`${await tokenForPerSecond()}\n`);

// Inlined by the bundler, so the bin reads no file outside dist to know its version.
import { version } from '../../package.json';

/** The package version, printed by `merchant-wallet --version`. */
export const CLI_VERSION: string = version;

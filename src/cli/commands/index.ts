import { certifyCommand } from './certify.js';
import type { Command } from './command.js';
import { demoCommand } from './demo.js';
import { doctorCommand } from './doctor.js';
import { loginUrlCommand } from './login-url.js';
import { reconcileCommand } from './reconcile.js';
import { sandboxCommand } from './sandbox.js';
import { SANDBOX_CONTROL_COMMANDS } from './sandbox-control.js';
import { statusCommand } from './status.js';

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  sandboxCommand,
  ...SANDBOX_CONTROL_COMMANDS,
  demoCommand,
  statusCommand,
  reconcileCommand,
  loginUrlCommand,
  doctorCommand,
  certifyCommand,
];

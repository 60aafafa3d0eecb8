import { WalletConfigError } from '../../errors.js';

/** A node-redis 5 client (`createClient()`), which sends raw commands with `sendCommand`. */
export interface NodeRedisLike {
  /** Sends one command given as its words. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** An ioredis client (`new Redis()`), which sends raw commands with `call`. */
export interface IoRedisLike {
  /** Sends one command with its arguments. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A connected Redis client: node-redis 5 or ioredis. The adapters only send plain commands. */
export type RedisClientLike = NodeRedisLike | IoRedisLike;

/** Sends one command, whichever client it is. */
export type SendCommand = (args: string[]) => Promise<unknown>;

/** The command sender of `client`; refuses anything that is neither node-redis nor ioredis. */
export function commandSender(option: string, client: unknown): SendCommand {
  if (typeof client === 'object' && client !== null) {
    const candidate = client as Partial<NodeRedisLike & IoRedisLike>;
    // ioredis has a `sendCommand` too, taking its own Command objects: look for its `call` first.
    if (typeof candidate.call === 'function') {
      return ([command, ...rest]) =>
        candidate.call?.call(client, command as string, ...rest) as Promise<unknown>;
    }
    if (typeof candidate.sendCommand === 'function') {
      return (args) => candidate.sendCommand?.call(client, args) as Promise<unknown>;
    }
  }
  throw new WalletConfigError(option, 'must be a connected node-redis or ioredis client');
}

/** Refuses a key prefix that is not a string. */
export function checkPrefix(option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length > 200) {
    throw new WalletConfigError(option, 'must be a string of at most 200 characters');
  }
  return value;
}

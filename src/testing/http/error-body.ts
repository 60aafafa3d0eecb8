import { WalletConfigError } from '../../errors.js';

/** The body builders, one per shape; {@link ERROR_BODY_SHAPES} is their public view. */
const SHAPES = {
  code: (code: string, message: string) => ({ code, message }),
  'error-object': (code: string, message: string) => ({ error: { code, message } }),
  'error-string': (code: string, message: string) => ({ error: code, message }),
  'errors-array': (code: string, message: string) => ({ errors: [{ code, message }] }),
} as const satisfies Record<ErrorBodyShape, (code: string, message: string) => object>;

/** A key of {@link ERROR_BODY_SHAPES}. */
export type ErrorBodyShape = 'code' | 'error-object' | 'error-string' | 'errors-array';

/**
 * The four error-body shapes the sandbox can answer with, so tests can exercise
 * a client's parser against each:
 * - `code`: `{ code, message }`
 * - `error-object`: `{ error: { code, message } }`
 * - `error-string`: `{ error: "<code>", message }`
 * - `errors-array`: `{ errors: [{ code, message }] }`
 */
export const ERROR_BODY_SHAPES: Readonly<Record<ErrorBodyShape, (code: string, message: string) => object>> =
  SHAPES;

/** Checks a shape given by a caller, naming `field` when it is not one of the four. */
export function assertErrorBodyShape(value: unknown, field: string): asserts value is ErrorBodyShape {
  if (typeof value !== 'string' || !Object.hasOwn(ERROR_BODY_SHAPES, value)) {
    throw new WalletConfigError(field, `must be one of ${Object.keys(ERROR_BODY_SHAPES).join(', ')}`);
  }
}

/** The error body for `code` and `message` in `shape`. */
export function errorBody(shape: ErrorBodyShape, code: string, message: string): object {
  return ERROR_BODY_SHAPES[shape](code, message);
}

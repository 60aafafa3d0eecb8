import { fail, type Outcome } from '../model/context.js';
import type { SandboxHttpRequest } from './response.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The JSON object body of a request, or why it cannot be read. */
export function readJsonBody(
  request: SandboxHttpRequest,
): { json: Record<string, unknown> } | { failure: Outcome } {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') return { failure: fail('unsupported_media_type') };
  try {
    const parsed: unknown = JSON.parse(decoder.decode(request.body));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { json: parsed as Record<string, unknown> };
    }
  } catch {
    // Falls through: undecodable bytes and bad JSON get the same answer as a non-object.
  }
  return { failure: fail('invalid_json') };
}

import { createHash } from 'node:crypto';

/** sha256 of text or bytes, hex. */
export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Random identifiers. Ids double as file names inside the data dir, so they are plain hex. */
import { randomBytes } from 'node:crypto';

/** A 24-hex-character random id (96 bits): unguessable and safe as a path component. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** True for ids this service generated; anything else must never reach a file path. */
export function isGeneratedId(value: string): boolean {
  return /^[0-9a-f]{24}$/.test(value);
}

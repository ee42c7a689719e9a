import { AppError } from '../../shared/errors'
import type { JsonObject } from '../../shared/settings'

/**
 * One JSON file of the store (settings.json, secrets.json). The headless host fills this with
 * `atomicFileBackend`, the desktop app with `electron-store` (the same file format), tests with anything.
 */
export interface JsonFileBackend {
  /** Where the file lives, so a corrupt one can be moved aside. */
  readonly path: string
  /** The stored object, `{}` when there is no file. Throws `CorruptJsonFileError` when it is not a JSON object. */
  read(): JsonObject
  /** Replaces the whole file atomically (temp file and rename), so a crash never leaves half a file. */
  write(data: JsonObject): void
}

export interface JsonFileBackendOptions {
  dir: string
  /** File name without `.json`. */
  name: string
  /** Permission bits for the file (0o600 for secrets). */
  mode?: number
}

export type JsonFileBackendFactory = (options: JsonFileBackendOptions) => JsonFileBackend

/**
 * A file that is not a JSON object. An AppError that keeps a class of its own: the backends that throw it
 * live outside this service (electron/), and the store moves exactly these files aside.
 */
export class CorruptJsonFileError extends AppError {
  override name = 'CorruptJsonFileError'

  constructor(message: string, options?: ErrorOptions) {
    super('VALIDATION_FAILED', message, options)
  }
}

/** The deserializer of both backends: a JSON object or a clear failure, nothing else. */
export function parseJsonObject(text: string): JsonObject {
  const value: unknown = JSON.parse(text)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SyntaxError('the file does not hold a JSON object')
  return value as JsonObject
}

/** The file format of both backends: two-space JSON and a final newline. */
export function serializeJsonObject(value: JsonObject): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

import type { JsonObject } from '../../shared/settings'
import {
  CorruptJsonFileError,
  type JsonFileBackend,
  type JsonFileBackendOptions,
  parseJsonObject,
  serializeJsonObject,
} from './jsonFileBackend'

/** What electron-store (a subclass of conf) offers, as far as the store needs. */
export interface ConfLike {
  store: JsonObject
}

/** electron-store's options: no dot paths, no silent reset of a bad file, the host's file format. */
export function confOptions(options: JsonFileBackendOptions) {
  return {
    cwd: options.dir,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    watch: false,
    deserialize: parseJsonObject,
    serialize: serializeJsonObject,
    ...(options.mode === undefined ? {} : { configFileMode: options.mode }),
  }
}

function isParseFailure(error: unknown): boolean {
  return error instanceof SyntaxError
}

/**
 * Adapts a conf-like store. It is created lazily because conf reads (and refuses) a corrupt file in
 * its constructor; after the store moves that file aside, the next call simply creates it again.
 */
export function confLikeBackend(create: () => ConfLike, path: string): JsonFileBackend {
  let instance: ConfLike | undefined
  const open = (): ConfLike => {
    instance ??= create()
    return instance
  }
  return {
    path,
    read() {
      try {
        return { ...open().store }
      } catch (error) {
        if (isParseFailure(error)) {
          instance = undefined
          throw new CorruptJsonFileError((error as Error).message)
        }
        throw error
      }
    },
    write(data) {
      open().store = data
    },
  }
}

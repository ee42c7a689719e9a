import { join } from 'node:path'
import ElectronStore from 'electron-store'
import type { JsonObject } from '../../shared/settings'
import {
  CorruptJsonFileError,
  type JsonFileBackend,
  type JsonFileBackendFactory,
  type JsonFileBackendOptions,
  parseJsonObject,
  serializeJsonObject,
} from '../settings'

/** What electron-store (a subclass of conf) offers, as far as the store needs. */
interface ConfLike {
  store: JsonObject
}

/** electron-store's options: no dot paths, no silent reset of a bad file, the host's file format. */
function confOptions(options: JsonFileBackendOptions) {
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
function confLikeBackend(create: () => ConfLike, path: string): JsonFileBackend {
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
          throw new CorruptJsonFileError((error as Error).message, { cause: error })
        }
        throw error
      }
    },
    write(data) {
      open().store = data
    },
  }
}

/** The desktop app's store backend: electron-store, the same JSON files as the headless host's. */
export const electronStoreBackend: JsonFileBackendFactory = (options) =>
  confLikeBackend(
    () => new ElectronStore<JsonObject>({ ...confOptions(options), name: options.name }),
    join(options.dir, `${options.name}.json`),
  )

import { join } from 'node:path'
import Conf from 'conf'
import type { JsonObject } from '../../shared/settings'
import {
  CorruptJsonFileError,
  type JsonFileBackend,
  type JsonFileBackendFactory,
  type JsonFileBackendOptions,
  parseJsonObject,
} from './jsonFileBackend'

/** What conf and electron-store (a subclass of conf) have in common, as far as the store needs. */
export interface ConfLike {
  store: JsonObject
}

/** Options shared by the conf and electron-store backends: no dot paths, no silent reset of a bad file. */
export function confOptions(options: JsonFileBackendOptions) {
  return {
    cwd: options.dir,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    watch: false,
    deserialize: parseJsonObject,
    serialize: (value: JsonObject) => `${JSON.stringify(value, null, 2)}\n`,
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

/** The headless host's backend: `conf` writing `<dir>/<name>.json` atomically. */
export const confBackend: JsonFileBackendFactory = (options) =>
  confLikeBackend(
    () => new Conf<JsonObject>({ ...confOptions(options), configName: options.name }),
    join(options.dir, `${options.name}.json`),
  )

import { join } from 'node:path'
import ElectronStore from 'electron-store'
import type { JsonObject } from '../../shared/settings'
import { confLikeBackend, confOptions, type JsonFileBackendFactory } from '../settings'

/** The desktop app's store backend: electron-store, the same JSON files as the headless host's conf. */
export const electronStoreBackend: JsonFileBackendFactory = (options) =>
  confLikeBackend(
    () => new ElectronStore<JsonObject>({ ...confOptions(options), name: options.name }),
    join(options.dir, `${options.name}.json`),
  )

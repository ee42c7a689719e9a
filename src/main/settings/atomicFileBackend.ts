import { mkdirSync, writeFileSync as plainWriteFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileSync } from 'atomically'
import {
  CorruptJsonFileError,
  type JsonFileBackendFactory,
  parseJsonObject,
  serializeJsonObject,
} from './jsonFileBackend'

/** conf's default permission bits, which electron-store (the desktop app's backend) keeps. */
const DEFAULT_MODE = 0o666

/**
 * The headless host's backend: `<dir>/<name>.json`, read from disk on every call and replaced with
 * `atomically` (temp file, fsync, rename), as electron-store does in the app. It behaves as `conf` did
 * here (a missing file is `{}` and its folder is created, a bad one is refused), without what conf loads
 * at start and Bureau never used (a JSON-schema validator and migrations: about 100 ms of every CLI run).
 */
export const atomicFileBackend: JsonFileBackendFactory = ({ dir, name, mode = DEFAULT_MODE }) => {
  const path = join(dir, `${name}.json`)
  return {
    path,
    read() {
      let text: string
      try {
        text = readFileSync(path, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        mkdirSync(dir, { recursive: true })
        return {}
      }
      try {
        return parseJsonObject(text)
      } catch (error) {
        throw new CorruptJsonFileError((error as Error).message, { cause: error })
      }
    },
    write(data) {
      mkdirSync(dir, { recursive: true })
      const text = serializeJsonObject(data)
      try {
        writeFileSync(path, text, { mode })
      } catch (error) {
        // Windows may refuse the rename across what it sees as devices (electron-store issue 106).
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
        plainWriteFileSync(path, text, { mode })
      }
    },
  }
}

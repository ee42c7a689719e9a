import { extensionOf, formatOfExtension } from './extensions'
import type { ConvertFormat } from './types'
import { warmWorkers } from './worker/runInWorker'

/** A command marks its process's lifetime here, before its workers start (they read it when they do). */
export { setConvertLifetime } from './lifetime'

/**
 * Starts the workers a batch of these files will use and has them load the formats' libraries, before
 * the files are read (or, in the CLI, before the rest of the command has loaded). Returns the formats.
 */
export function prestartWorkers(fileNames: readonly string[]): Set<ConvertFormat> {
  const formats = new Set<ConvertFormat>()
  for (const name of fileNames) {
    const format = formatOfExtension(extensionOf(name))
    if (format) formats.add(format)
  }
  if (fileNames.length > 0) warmWorkers([...formats], fileNames.length)
  return formats
}

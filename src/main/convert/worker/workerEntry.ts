import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
// electron-vite bundles `?modulePath` imports as their own entry (out/main/chunks/convertWorker-*.js)
// and gives their path next to the importing chunk; under Vitest, vitest.config.ts resolves the
// same import to the .ts source.
import entry from './convertWorker.ts?modulePath'

/** Starts the conversion worker from the build, or from the sources through tsx (Vitest). */
export function startConvertWorker(options: WorkerOptions): Worker {
  if (!entry.endsWith('.ts')) return new Worker(entry, options)
  // tsx's ESM API by file (its `require` export cannot register the loader from an eval worker).
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const tsx = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href
  const source = pathToFileURL(entry).href
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(boot, { ...options, eval: true })
}

import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * Where the worker's entry is. Run from the sources (Vitest, tsx benches) this module is a .ts file
 * and the entry is its sibling .ts. In the build, electron-vite's `?modulePath` import bundles the
 * entry as its own file (out/main/chunks/convertWorker-<hash>.js) and gives its path relative to the
 * importing chunk; the import is only reached in the build, so nothing else has to understand it.
 */
async function entryPath(): Promise<{ path: string; fromSources: boolean }> {
  if (import.meta.url.endsWith('.ts'))
    return { path: fileURLToPath(new URL('./convertWorker.ts', import.meta.url)), fromSources: true }
  const built = await import('./convertWorker.ts?modulePath')
  return { path: built.default, fromSources: false }
}

/** Starts the conversion worker from the build, or from the sources through tsx. */
export async function startConvertWorker(options: WorkerOptions): Promise<Worker> {
  const entry = await entryPath()
  if (!entry.fromSources) return new Worker(entry.path, options)
  // tsx's ESM API by file (its `require` export cannot register the loader from an eval worker).
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const tsx = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href
  const source = pathToFileURL(entry.path).href
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(boot, { ...options, eval: true })
}

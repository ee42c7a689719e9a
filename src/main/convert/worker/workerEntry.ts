import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { defaultCacheDir } from '../../platform'
import { FormatProblem } from '../errors'
import { convertLifetime } from '../lifetime'

const BUILT_ENTRY = join('worker', 'workerMain.cjs')

/**
 * The built worker (`out/worker/workerMain.cjs`, a CommonJS build of its own: see
 * electron.vite.worker.config.ts) seen from this module, bundled into `out/main` or one of its chunk
 * folders. Run from the sources (Vitest, tsx benches) this module is a .ts file and there is none.
 */
function builtEntry(): string | undefined {
  if (import.meta.url.endsWith('.ts')) return undefined
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(dir, BUILT_ENTRY)
    if (existsSync(candidate)) return candidate
    dir = dirname(dir)
  }
  throw new FormatProblem(
    'failed',
    `Bureau's conversion worker is missing from this build (${BUILT_ENTRY}): run \`npm run build\``,
  )
}

/** Where the built worker keeps V8's code cache: `BUREAU_CODE_CACHE` (a folder, or `off`) or the OS cache. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.BUREAU_CODE_CACHE?.trim()
  if (chosen === 'off') return undefined
  return resolve(chosen || join(defaultCacheDir(env), 'code'))
}

/** Starts the conversion worker from the build, or from the sources through tsx. */
export function startConvertWorker(options: WorkerOptions): Worker {
  const built = builtEntry()
  const lifetime = convertLifetime()
  if (built) return new Worker(built, { ...options, workerData: { codeCacheDir: codeCacheDir(), lifetime } })
  // tsx's ESM API by file (its `require` export cannot register the loader from an eval worker).
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const tsx = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href
  const source = pathToFileURL(fileURLToPath(new URL('./convertWorker.ts', import.meta.url))).href
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(boot, { ...options, eval: true, workerData: { lifetime } })
}

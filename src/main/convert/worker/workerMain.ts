import { workerData } from 'node:worker_threads'
import { installCodeCache } from './codeCache'

// Entry of the built worker (out/worker/workerMain.cjs): the code cache is installed before the worker
// and its format chunks are loaded, so each of them is compiled from the cache. Only the pool starts it
// (workerEntry.ts), with `{ codeCacheDir }` or nothing when the cache is off.
const cacheDir = (workerData as { codeCacheDir?: unknown } | null)?.codeCacheDir
installCodeCache(typeof cacheDir === 'string' ? cacheDir : undefined, import.meta.dirname)
void import('./convertWorker')

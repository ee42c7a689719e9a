import { createRequire } from 'node:module'

/**
 * The tesseract.js worker, started so that what its engine writes on stderr is dropped: libjpeg and
 * leptonica print lines such as "Premature end of JPEG file" for a damaged image, ahead of the clear error
 * the job's rejection becomes. tesseract.js starts `new Worker(workerPath)` with no stdio options, so
 * the worker is a `data:` module of ours that mutes its own stderr and then loads tesseract.js's script.
 * `BUREAU_LOG_LEVEL=debug` keeps the engine's lines.
 */
export function quietTesseractWorker(env: NodeJS.ProcessEnv = process.env): URL | undefined {
  if (env.BUREAU_LOG_LEVEL === 'debug') return undefined
  const script = createRequire(import.meta.url).resolve('tesseract.js/src/worker-script/node/index.js')
  const source = [
    "import { createRequire } from 'node:module'",
    'process.stderr.write = (_chunk, encoding, done) => {',
    "  const callback = typeof encoding === 'function' ? encoding : done",
    "  if (typeof callback === 'function') queueMicrotask(() => callback())",
    '  return true',
    '}',
    `createRequire(${JSON.stringify(script)})(${JSON.stringify(script)})`,
  ].join('\n')
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`)
}

import { createRequire } from 'node:module'

const renderingGlobals = ['DOMMatrix', 'ImageData', 'Path2D'] as const

/** Constructible and inert: pdf.js builds one `DOMMatrix` at import for its canvas renderer, never used here. */
class NotForRendering {}

/**
 * pdf.js, when imported in Node, loads `@napi-rs/canvas` (a 33 MB native library, ~40 ms) only to
 * polyfill DOMMatrix, ImageData and Path2D for rendering, which text extraction never does. During the
 * import the package resolves to inert stand-ins; afterwards the require cache and the globals are as
 * they were, so anything else in the process that wants the real canvas still gets it.
 */
export async function importWithoutCanvas<T>(load: () => Promise<T>): Promise<T> {
  const require = createRequire(import.meta.url)
  let path: string
  try {
    path = require.resolve('@napi-rs/canvas')
  } catch {
    return load()
  }
  const globals = globalThis as Record<string, unknown>
  if (require.cache[path] || renderingGlobals.some((name) => globals[name] !== undefined)) return load()
  const standIns = Object.fromEntries(renderingGlobals.map((name) => [name, NotForRendering]))
  require.cache[path] = { id: path, filename: path, loaded: true, exports: standIns } as NodeJS.Module
  try {
    return await load()
  } finally {
    if (require.cache[path]?.exports === standIns) delete require.cache[path]
    for (const name of renderingGlobals) if (globals[name] === NotForRendering) delete globals[name]
  }
}

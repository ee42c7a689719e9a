import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'

/** The same policy the Electron window gets: no inline or remote script. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Bureau</title>
<p>The Bureau user interface is not built yet. Run <code>npm run build</code>, then start <code>bureau serve</code> again.</p>`

/** Serves the built renderer with a strict CSP; unknown paths fall back to index.html (client-side routes). */
export function mountRendererEndpoints(http: Hono, rendererDir: string | undefined): void {
  const indexFile = rendererDir ? join(rendererDir, 'index.html') : undefined
  const built = indexFile !== undefined && existsSync(indexFile)

  http.use('*', async (c, next) => {
    await next()
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
  })
  if (built && rendererDir) http.use('/*', serveStatic({ root: rendererDir }))
  http.get('*', async (c) => {
    if (!built || !indexFile) return c.html(NOT_BUILT, 503)
    return c.html(await readFile(indexFile, 'utf8'))
  })
}

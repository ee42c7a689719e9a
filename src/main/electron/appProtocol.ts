import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { protocol } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../server'

export const APP_SCHEME = 'app'
export const APP_ORIGIN = 'app://bureau'

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

/** Must run before `app.ready`: `app://` behaves like a secure standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ])
}

/** Serves the built renderer from `app://bureau/`, never anything outside it, always with the CSP. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== 'bureau') return new Response('Not found', { status: 404 })
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)
    const file = normalize(join(rendererDir, relative))
    const inside = file.startsWith(rendererDir + sep)
    const target = inside && extname(file) ? file : join(rendererDir, 'index.html')
    try {
      const body = await readFile(target)
      return new Response(body, {
        headers: {
          'content-type': mimeTypes[extname(target)] ?? 'application/octet-stream',
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
        },
      })
    } catch {
      return new Response('Not found', { status: 404 })
    }
  })
}

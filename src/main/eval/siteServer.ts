import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename, join } from 'node:path'
import type { Submission } from './checks'

/** The local test pages of the web tasks, on 127.0.0.1; forms posted to it are recorded for the checks. */
export interface TestSite {
  origin: string
  /** Submissions since the last call (each task starts with none). */
  take(): Submission[]
  close(): Promise<void>
}

const MAX_BODY = 64 * 1024

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
      if (body.length > MAX_BODY) req.destroy(new Error('body too large'))
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}

/** Serves `<pagesDir>/*.html` by name; `POST <path>` records the form and answers with thanks.html. */
export async function startTestSite(pagesDir: string): Promise<TestSite> {
  let submissions: Submission[] = []
  const page = async (name: string) => readFile(join(pagesDir, basename(name)), 'utf8')
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const reply = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      res.end(html)
    }
    const handle = async () => {
      if (req.method === 'POST') {
        const fields = Object.fromEntries(new URLSearchParams(await readBody(req)))
        submissions.push({ path: url.pathname, fields })
        return reply(200, await page('thanks.html'))
      }
      const name = url.pathname === '/' ? 'start.html' : url.pathname.slice(1)
      if (!/^[\w-]+\.html$/.test(name)) return reply(404, '<h1>Not found</h1>')
      return reply(200, await page(name))
    }
    handle().catch(() => reply(404, '<h1>Not found</h1>'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    take() {
      const taken = submissions
      submissions = []
      return taken
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

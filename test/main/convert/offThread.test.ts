import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { type ConvertError, createConverter } from '../../../src/main/convert'
import { silentLogger } from '../../../src/main/logging'
import { startHttpHost } from '../../../src/main/server'
import type { HttpHost } from '../../../src/main/server/createHttpHost'
import { rawHttp } from '../../support/rawHttp'
import { tempDirs } from '../../support/tempDir'

// A hostile file must not stall the host: conversions run off the main thread, so /health keeps
// answering while one runs, and the conversion ends with a clear error at its deadline.

const dirs = tempDirs('bureau-offthread-')
let app: BureauApp
let host: HttpHost

beforeAll(async () => {
  app = await createApp({
    host: 'web',
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    logger: silentLogger,
  })
  host = await startHttpHost({ app, port: 0, token: 'offthread-token' })
})

afterAll(async () => {
  await host?.close()
  await app?.dispose()
  await dirs.cleanup()
})

/** Polls /health until `work` settles; returns how many answers came back before it did. */
async function healthDuring(
  work: Promise<unknown>,
): Promise<{ answered: number; slowestMs: number; latencies: number[] }> {
  let settled = false
  void work.then(
    () => (settled = true),
    () => (settled = true),
  )
  let answered = 0
  let slowestMs = 0
  const latencies: number[] = []
  while (!settled) {
    const started = performance.now()
    const res = await rawHttp({ port: host.port, path: '/health' })
    const took = performance.now() - started
    expect(res.status).toBe(200)
    if (!settled) {
      answered++
      slowestMs = Math.max(slowestMs, took)
      latencies.push(Math.round(took))
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { answered, slowestMs, latencies }
}

describe('conversions off the main thread', () => {
  it('200,000 nested <div>: /health answers while it parses, and the deadline stops it', async () => {
    const depth = 200_000
    const html = `<html><body>${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}</body></html>`
    const converter = createConverter({ ocr: false, limits: { html: { timeoutMs: 3_000 } } })
    try {
      const started = performance.now()
      const conversion = converter.convert(
        { name: 'nested.html', bytes: Buffer.from(html) },
        { noCache: true },
      )
      const health = await healthDuring(conversion)
      const error = (await conversion.catch((e: unknown) => e)) as ConvertError
      console.info(
        `nested divs: error after ${Math.round(performance.now() - started)} ms; /health answered ${health.answered} times, slowest ${Math.round(health.slowestMs)} ms (${health.latencies.join(' ')})`,
      )
      expect(health.answered).toBeGreaterThan(0)
      expect(error.failure).toBe('timeout')
      expect(error.message).toBe(
        'Cannot convert "nested.html": conversion took longer than 3 s and was stopped',
      )
    } finally {
      await converter.dispose()
    }
  })
})

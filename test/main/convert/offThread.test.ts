import { constants, createDeflate } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { type ConvertError, createConverter } from '../../../src/main/convert'
import { silentLogger } from '../../../src/main/platform'
import { startHttpHost } from '../../../src/main/server'
import type { HttpHost } from '../../../src/main/server/createHttpHost'
import { rawHttp } from '../../support/rawHttp'
import { tempDirs } from '../../support/tempDir'
import { text, writePdf } from './pdfWriter'

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
  it('200,000 nested <div>: flattened in one pass, the text comes through well inside the deadline', async () => {
    const depth = 200_000
    const html = `<html><body>${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}</body></html>`
    const converter = createConverter({ ocr: false, limits: { html: { timeoutMs: 30_000 } } })
    try {
      const started = performance.now()
      const conversion = converter.convert(
        { name: 'nested.html', bytes: Buffer.from(html) },
        { noCache: true },
      )
      const health = await healthDuring(conversion)
      const result = await conversion
      console.info(
        `nested divs: converted in ${Math.round(performance.now() - started)} ms; /health answered ${health.answered} times`,
      )
      expect(result.markdown).toBe('x')
      expect(result.truncated).toBe(false)
    } finally {
      await converter.dispose()
    }
  })

  it('a PDF whose content stream inflates to 1 GiB: /health answers, and it ends with a clear error', async () => {
    const pdf = writePdf([{ content: [], deflated: await deflatedSpaces(1024) }])
    const converter = createConverter({ ocr: false, limits: { pdf: { timeoutMs: 3_000 } } })
    try {
      const { error, health, ms, peakRssMb } = await attack(
        converter.convert({ name: 'bomb.pdf', bytes: pdf }, { noCache: true }),
      )
      console.info(
        `1 GiB PDF stream (${Math.round(pdf.length / 1024)} KB file): ${error ? `error "${error.message}"` : 'converted'} after ${ms} ms; peak host RSS ${peakRssMb} MB; /health answered ${health.answered} times, slowest ${Math.round(health.slowestMs)} ms`,
      )
      expect(health.answered).toBeGreaterThan(0)
      expect(error?.message).toMatch(
        /^Cannot convert "bomb\.pdf": (conversion took longer than 3 s and was stopped|the conversion needed more than \d+ MB of memory and was stopped|no page of the PDF could be read.*)$/,
      )
    } finally {
      await converter.dispose()
    }
  })

  it('a 20,000-page PDF: /health answers while it converts, and it ends (converted or a clear error)', async () => {
    // Ten characters or more a page: a page with less text counts as a scan (readPage.ts).
    const pages = Array.from({ length: 20_000 }, (_, index) => ({
      content: [text(72, 720, `Page ${index + 1} of many`)],
    }))
    const pdf = writePdf(pages)
    const converter = createConverter({ ocr: false, limits: { pdf: { timeoutMs: 3_000 } } })
    try {
      const { error, health, ms, peakRssMb, result } = await attack(
        converter.convert({ name: 'many.pdf', bytes: pdf }, { noCache: true }),
      )
      console.info(
        `20,000-page PDF (${Math.round(pdf.length / 1024)} KB): ${error ? `error "${error.message}"` : `converted, ${result?.markdown.length} characters`} after ${ms} ms; peak host RSS ${peakRssMb} MB; /health answered ${health.answered} times, slowest ${Math.round(health.slowestMs)} ms`,
      )
      expect(health.answered).toBeGreaterThan(0)
      if (error)
        expect(error.message).toBe(
          'Cannot convert "many.pdf": conversion took longer than 3 s and was stopped',
        )
      else {
        expect(result?.markdown).toContain('Page 1 of many\n')
        expect(result?.markdown).toContain('Page 20000 of many')
      }
    } finally {
      await converter.dispose()
    }
  })
})

/** `mib` MiB of spaces (valid, empty content), deflated as it is produced (about 1 MB per GiB). */
async function deflatedSpaces(mib: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: constants.Z_BEST_SPEED })
  const chunks: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise((resolve) => deflate.on('end', resolve))
  const block = Buffer.alloc(1024 * 1024, 0x20)
  for (let index = 0; index < mib; index++) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await ended
  return Buffer.concat(chunks)
}

/** Runs a conversion while /health is polled and the host's resident memory sampled. */
async function attack<T>(conversion: Promise<T>) {
  const started = performance.now()
  let peak = process.memoryUsage.rss()
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 100)
  try {
    const health = await healthDuring(conversion)
    const settled = await conversion.then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error: error as ConvertError }),
    )
    return {
      ...settled,
      health,
      ms: Math.round(performance.now() - started),
      peakRssMb: Math.round(peak / 2 ** 20),
    }
  } finally {
    clearInterval(sample)
  }
}

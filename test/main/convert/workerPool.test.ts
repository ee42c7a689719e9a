import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConvert } from '../../../src/main/cli/convert/runConvert'
import { createConverter, setConvertLifetime } from '../../../src/main/convert'
import { acquireSlot, convertPoolStats, setConvertPoolSize } from '../../../src/main/convert/worker/pool'
import { idleWorkerCount, stopIdleWorkers } from '../../../src/main/convert/worker/runInWorker'
import { tempDirs } from '../../support/tempDir'
import { text, writePdf } from './pdfWriter'

// The converter's worker pool: a batch runs on more than one worker, results keep their order, a
// hostile file stops only its own worker (short texts are under the 10 characters of a text layer), and the pool never runs more than its size.

const dirs = tempDirs('bureau-pool-')
let dir: string

const pdf = (words: string) => writePdf([{ content: [text(72, 720, words)] }])
const nestedHtml = (depth: number) =>
  Buffer.from(`<html><body>${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}</body></html>`)

beforeAll(async () => {
  dir = await dirs.make()
})

afterAll(async () => {
  setConvertPoolSize(undefined)
  // runConvert marked this worker's process as one CLI command; the next file of the worker is not one.
  setConvertLifetime('session')
  await dirs.cleanup()
})

describe('conversion worker pool', () => {
  // The worker is a fresh one: its 1 ms deadline passes while it still loads the HTML
  // converter, which then goes on into the long synchronous work of a deeply nested page. Parked, that
  // worker held the next job until its own hard deadline (a PDF's: 301 s).
  it('a worker whose conversion overran its deadline and still runs takes no further job', async () => {
    setConvertPoolSize(1)
    await stopIdleWorkers()
    expect(idleWorkerCount()).toBe(0)
    const converter = createConverter({ ocr: false, limits: { html: { timeoutMs: 1 } } })
    try {
      const hostile = converter.convert(
        { name: 'nested.html', bytes: nestedHtml(200_000) },
        { noCache: true },
      )
      await expect(hostile).rejects.toMatchObject({ failure: 'timeout' })
      expect(idleWorkerCount()).toBe(0)
      const next = await converter.convert(
        { name: 'c.pdf', bytes: pdf('Gamma document text') },
        { noCache: true },
      )
      expect(next.markdown.trim()).toBe('Gamma document text')
      expect(idleWorkerCount()).toBe(1)
    } finally {
      await converter.dispose()
    }
  })

  it('a CLI batch converts on two workers at once and reports the files in the order given', async () => {
    setConvertPoolSize(2)
    const names = ['one.pdf', 'broken.pdf', 'two.pdf', 'three.pdf']
    await writeFile(join(dir, 'one.pdf'), pdf('First document'))
    await writeFile(join(dir, 'broken.pdf'), Buffer.from('%PDF-1.7\nnot a pdf at all'))
    await writeFile(join(dir, 'two.pdf'), pdf('Second document'))
    await writeFile(join(dir, 'three.pdf'), pdf('Third document'))
    const chunks: string[] = []
    const io = { out: (chunk: string) => void chunks.push(chunk), err: () => {} }
    const run = runConvert(
      names.map((name) => join(dir, name)),
      { json: true, vision: 'off' },
      io,
    )
    await expect(run).rejects.toThrow('1 of 4 files could not be converted')
    const report = JSON.parse(chunks.join('')) as {
      files: { file: string; ok: boolean; markdown?: string }[]
    }
    expect(report.files.map((file) => file.file)).toEqual(names.map((name) => join(dir, name)))
    expect(report.files.map((file) => file.ok)).toEqual([true, false, true, true])
    expect(report.files.map((file) => file.markdown?.trim())).toEqual([
      'First document',
      undefined,
      'Second document',
      'Third document',
    ])
    expect(convertPoolStats().mostRunning).toBe(2)
  })

  it('bureau convert keeps one file read and waiting beyond the pool, never converting more at once', async () => {
    setConvertPoolSize(1)
    const names = ['ahead-1.pdf', 'ahead-2.pdf', 'ahead-3.pdf']
    for (const [index, name] of names.entries())
      await writeFile(join(dir, name), pdf(`Queued document ${index + 1}`))
    const chunks: string[] = []
    const io = { out: (chunk: string) => void chunks.push(chunk), err: () => {} }
    await runConvert(
      names.map((name) => join(dir, name)),
      { json: true, vision: 'off', cache: false },
      io,
    )
    const report = JSON.parse(chunks.join('')) as { files: { markdown?: string }[] }
    expect(report.files.map((file) => file.markdown?.trim())).toEqual([
      'Queued document 1',
      'Queued document 2',
      'Queued document 3',
    ])
    // The next file waited for the worker while the one before converted: the worker did not idle
    // while the host read it. Before, a batch had one lane per worker, and nothing ever waited.
    expect(convertPoolStats()).toMatchObject({ mostRunning: 1, mostWaiting: 1 })
  })

  it('a file that overruns its deadline stops only its worker; the others keep their results', async () => {
    setConvertPoolSize(2)
    // 200,000 nested elements can flatten inside 300 ms on an idle machine; a 20 ms deadline is always overrun.
    const converter = createConverter({ ocr: false, limits: { html: { timeoutMs: 20 } } })
    try {
      const outcomes = await Promise.allSettled([
        converter.convert({ name: 'nested.html', bytes: nestedHtml(200_000) }, { noCache: true }),
        converter.convert({ name: 'a.pdf', bytes: pdf('Alpha document text') }, { noCache: true }),
        converter.convert({ name: 'b.pdf', bytes: pdf('Beta document text') }, { noCache: true }),
      ])
      const [hostile, a, b] = outcomes
      expect(hostile?.status === 'rejected' && (hostile.reason as { failure?: string }).failure).toBe(
        'timeout',
      )
      expect(a?.status === 'fulfilled' && a.value.markdown.trim()).toBe('Alpha document text')
      expect(b?.status === 'fulfilled' && b.value.markdown.trim()).toBe('Beta document text')
      expect(convertPoolStats().mostRunning).toBe(2)
    } finally {
      await converter.dispose()
    }
  })

  it('never runs more conversions than its size', async () => {
    setConvertPoolSize(1)
    const converter = createConverter({ ocr: false })
    try {
      const results = await Promise.all(
        ['x', 'y', 'z'].map((word) =>
          converter.convert({ name: `${word}.pdf`, bytes: pdf(`Document ${word}`) }, { noCache: true }),
        ),
      )
      expect(results.map((result) => result.markdown.trim())).toEqual([
        'Document x',
        'Document y',
        'Document z',
      ])
      expect(convertPoolStats().mostRunning).toBe(1)
    } finally {
      await converter.dispose()
    }
  })

  it('an exclusive slot waits for the running ones and holds back the rest', async () => {
    setConvertPoolSize(2)
    const order: string[] = []
    const first = await acquireSlot(false, undefined)
    const alone = acquireSlot(true, undefined).then((release) => {
      order.push('alone')
      return release
    })
    const after = acquireSlot(false, undefined).then((release) => {
      order.push('after')
      return release
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual([])
    first()
    const releaseAlone = await alone
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual(['alone'])
    releaseAlone()
    ;(await after)()
    expect(order).toEqual(['alone', 'after'])
    expect(convertPoolStats().running).toBe(0)
  })

  it('a queued conversion that is cancelled leaves the queue', async () => {
    setConvertPoolSize(1)
    const held = await acquireSlot(false, undefined)
    const controller = new AbortController()
    const queued = acquireSlot(false, controller.signal)
    controller.abort(new Error('stop'))
    await expect(queued).rejects.toThrow('stop')
    held()
    expect(convertPoolStats().running).toBe(0)
  })
})

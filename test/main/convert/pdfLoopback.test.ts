import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { cloneMessage, FastLoopbackPort, withoutGlyphArguments } from '../../../src/main/convert/pdf/loopback'

const styles = Object.assign(Object.create(null) as Record<string, unknown>, {
  g_d0_f1: { fontFamily: 'serif', ascent: 0.9, vertical: false },
})

/** Messages of the shapes pdf.js sends: text content, operator lists, errors, maps. */
const samples: unknown[] = [
  {
    sourceName: 'fake0_worker',
    targetName: 'fake0',
    stream: 3,
    streamId: 1,
    chunk: {
      items: [{ str: 'Total', dir: 'ltr', transform: [12, 0, 0, 12, 72.5, -0], width: 30.1, hasEOL: false }],
      styles,
    },
  },
  {
    fnArray: new Uint8Array([1, 2, 85]),
    argsArray: [null, [new Float32Array([1, 0, 0, 1, 2.5, 3])], ['img_p0_1', 300, 200]],
    lastChunk: true,
    separateAnnots: null,
  },
  { nested: { deep: { list: [1, 'two', true, null, undefined, Number.NaN, -0, 10n] } }, empty: {} },
  { reason: new Error('broken xref') },
  { map: new Map([['a', 1]]) },
  { date: new Date(0) },
  // A sparse array (holes are kept by structuredClone).
  Object.assign(new Array(3), { 0: 1, 2: 3 }),
]

describe('pdf.js loopback clone', () => {
  it.each(samples.map((sample, index) => [index, sample]))(
    'copies message %i as structuredClone does',
    (_index, sample) => {
      const copy = cloneMessage(sample)
      expect(isDeepStrictEqual(copy, structuredClone(sample))).toBe(true)
      if (typeof sample === 'object' && sample !== null) expect(copy).not.toBe(sample)
    },
  )

  it('copies buffers once per message: shared views stay shared, offsets are kept, the source is not touched', () => {
    const buffer = new ArrayBuffer(16)
    const whole = new Uint8Array(buffer)
    const part = new Uint16Array(buffer, 4, 2)
    const copy = cloneMessage({ whole, part }) as { whole: Uint8Array; part: Uint16Array }
    expect(copy.whole.buffer).toBe(copy.part.buffer)
    expect(copy.whole.buffer).not.toBe(buffer)
    expect(copy.part.byteOffset).toBe(4)
    copy.part[0] = 7
    expect(whole[4]).toBe(0)
    expect(copy.whole[4]).toBe(7)
  })

  it('hands transferred buffers over instead of copying them', () => {
    const data = new Uint8Array([1, 2, 3])
    const copy = cloneMessage({ data }, [data.buffer]) as { data: Uint8Array }
    expect(copy.data.buffer).toBe(data.buffer)
  })

  it('copies a message when it is posted, so later changes by the sender are not seen', async () => {
    const port = new FastLoopbackPort()
    const seen: unknown[] = []
    port.addEventListener('message', (event) => seen.push(event.data))
    const chunk = { items: [{ str: 'a' }] }
    port.postMessage(chunk)
    chunk.items = []
    await Promise.resolve()
    await Promise.resolve()
    expect(seen).toEqual([{ items: [{ str: 'a' }] }])
    port.terminate()
    port.postMessage(chunk)
    await Promise.resolve()
    expect(seen).toHaveLength(1)
  })

  it('refuses what structuredClone refuses', () => {
    expect(() => cloneMessage({ callback: () => 1 })).toThrow()
  })

  it('leaves out only the arguments of text-showing operators, on a copy', async () => {
    const glyphs = [{ fontChar: 'A', unicode: 'A', width: 600 }]
    const path = [new Float32Array([0, 10, 10, 1, 20, 10])]
    const message = {
      stream: 3,
      chunk: {
        fnArray: [12, 44, 45, 46, 47, 91, 85],
        argsArray: [
          [1, 0, 0, 1, 0, 0],
          [glyphs],
          [glyphs],
          [glyphs],
          [0, 0, glyphs],
          path,
          ['img_p0_1', 300, 200],
        ],
        lastChunk: true,
      },
    }
    const stripped = withoutGlyphArguments(message) as typeof message
    expect(stripped.chunk.argsArray).toEqual([
      [1, 0, 0, 1, 0, 0],
      null,
      null,
      null,
      null,
      path,
      ['img_p0_1', 300, 200],
    ])
    expect(stripped.chunk.fnArray).toEqual(message.chunk.fnArray)
    expect(stripped.chunk.lastChunk).toBe(true)
    expect(message.chunk.argsArray[1]).toEqual([glyphs])
    expect(withoutGlyphArguments({ chunk: { items: [] } })).toEqual({ chunk: { items: [] } })

    const seen: unknown[] = []
    const port = new FastLoopbackPort({ withoutGlyphs: true })
    port.addEventListener('message', (event) => seen.push(event.data))
    port.postMessage(message)
    await Promise.resolve()
    await Promise.resolve()
    expect((seen[0] as typeof message).chunk.argsArray[1]).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { decodeWire, encodeWire } from '../../src/shared/ipc'

describe('wire codec', () => {
  it('round-trips binary payloads inside JSON', () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 31) % 256)
    const decoded = decodeWire(
      encodeWire({ name: 'a.wav', bytes, nested: [{ b: new Uint8Array([0, 255]) }] }),
    ) as {
      bytes: Uint8Array
      nested: Array<{ b: Uint8Array }>
    }
    expect(decoded.bytes).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(decoded.bytes).equals(Buffer.from(bytes))).toBe(true)
    expect([...(decoded.nested[0]?.b ?? [])]).toEqual([0, 255])
  })

  it('leaves look-alike objects alone and rejects malformed JSON', () => {
    expect(decodeWire('{"$bin": 5}')).toEqual({ $bin: 5 })
    expect(decodeWire('{"$bin": "AA==", "other": 1}')).toEqual({ $bin: 'AA==', other: 1 })
    expect(() => decodeWire('{"a":')).toThrow(SyntaxError)
  })

  it('finds a marker whose key is written with escapes, and parses text without one as plain JSON', () => {
    const escaped = decodeWire('{"x":{"\\u0024bin":"AAE="}}') as { x: Uint8Array }
    expect([...escaped.x]).toEqual([0, 1])
    expect(decodeWire('{"rows":[{"r":1,"cells":[{"c":1,"t":"North"}]}]}')).toEqual({
      rows: [{ r: 1, cells: [{ c: 1, t: 'North' }] }],
    })
  })
})

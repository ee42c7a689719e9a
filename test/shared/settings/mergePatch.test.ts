import { describe, expect, it } from 'vitest'
import { applyMergePatch, patchForPath, valueAtPath } from '../../../src/shared/settings'

describe('JSON merge patch (RFC 7396)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  ])('%j + %j = %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected)
  })

  it('never mutates the target and ignores prototype keys', () => {
    const target = { a: { b: 1 } }
    const patch = JSON.parse('{"a":{"c":2},"__proto__":{"polluted":true}}')
    const result = applyMergePatch(target, patch) as Record<string, unknown>
    expect(target).toEqual({ a: { b: 1 } })
    expect(result).toEqual({ a: { b: 1, c: 2 } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('builds a patch from a dotted key and reads values by dotted key', () => {
    expect(patchForPath('voice.tts.rate', 1.5)).toEqual({ voice: { tts: { rate: 1.5 } } })
    expect(valueAtPath({ a: { b: 0 } }, 'a.b')).toEqual({ found: true, value: 0 })
    expect(valueAtPath({ a: { b: 0 } }, 'a.c')).toEqual({ found: false })
  })
})

import picomatch from 'picomatch'
import { describe, expect, it } from 'vitest'
import { compileGlob } from '../../../src/main/workspace/globMatch'

// picomatch is the reference for what globs mean; the product's matcher must agree with it on
// ordinary patterns and stay linear on hostile ones.

const names = [
  'q1.xlsx',
  'Q2.XLSX',
  'notes.txt',
  '.hidden',
  'report (1).pdf',
  'a/b/c.md',
  'a/c.md',
  'c.md',
  'a/b',
  'a',
  'x-1.csv',
  'x-9.csv',
  'x-a.csv',
  'über.txt',
  'file[1].txt',
  'a.b.c',
  'ab',
]

const patterns = [
  '*',
  '*.xlsx',
  'q?.xlsx',
  '*.{xlsx,txt}',
  '{a,b}*',
  '**/*.md',
  'a/**/c.md',
  'a/**',
  '**',
  'x-[0-5].csv',
  'x-[^a].csv',
  '*.*.*',
  'file\\[1\\].txt',
  'report (1).pdf',
  '.*',
  'a/*',
  '*/c.md',
  'ü*',
  '{q1,notes}.{xlsx,txt}',
  '?',
  '[ab]',
]

describe('compileGlob', () => {
  it('agrees with picomatch (nocase, dot) on ordinary patterns', () => {
    const disagreements: string[] = []
    for (const pattern of patterns) {
      const reference = picomatch(pattern, { nocase: true, dot: true })
      const ours = compileGlob(pattern, { nocase: true })
      for (const name of names) {
        if (reference(name) !== ours(name))
          disagreements.push(`${pattern} vs ${JSON.stringify(name)}: picomatch ${reference(name)}`)
      }
    }
    expect(disagreements).toEqual([])
  })

  it('negates a class with ! or ^ as POSIX does (picomatch 4 reads [!0-5] differently)', () => {
    for (const pattern of ['x-[!0-5].csv', 'x-[^0-5].csv']) {
      const match = compileGlob(pattern)
      expect([match('x-1.csv'), match('x-9.csv'), match('x-a.csv')]).toEqual([false, true, true])
    }
  })

  it('matches a backtracking-hostile pattern against a long name in linear time', () => {
    const name = 'a'.repeat(200)
    // picomatch's regular expression needs more than 40 s for this; the NFA answers at once.
    expect(compileGlob('*a*a*a*a*a*b', { nocase: true })(name)).toBe(false)
    expect(compileGlob('*a*a*a*a*a*a', { nocase: true })(name)).toBe(true)
    expect(compileGlob('**a**a**a**a**a**a**b')(`${'a/'.repeat(100)}`)).toBe(false)
  })

  it('refuses patterns that are too long or expand too far, with a clear error', () => {
    expect(() => compileGlob('a'.repeat(1001))).toThrow(/longer than 1000 characters/)
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow(
      /more than 256 alternatives/,
    )
  })
})

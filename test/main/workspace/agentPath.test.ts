import { describe, expect, it } from 'vitest'
import { parseAgentPath } from '../../../src/main/workspace'
import { PathRefusedError } from '../../../src/main/workspace/errors'

describe('parseAgentPath', () => {
  it.each([
    ['/', '/'],
    ['/notes/a.txt', '/notes/a.txt'],
    ['notes/a.txt', '/notes/a.txt'],
    ['/notes//a.txt', '/notes/a.txt'],
    ['/notes/./a.txt', '/notes/a.txt'],
    ['/notes/../a.txt', '/a.txt'],
    ['/a/b/../../c', '/c'],
    ['/notes/', '/notes'],
    ['.', '/'],
    ['/etc/passwd', '/etc/passwd'],
    ['/~/x', '/~/x'],
    ['/100% done.txt', '/100% done.txt'],
    ['/.hidden', '/.hidden'],
    ['/.bureau-notes/a', '/.bureau-notes/a'],
    ['/console.log', '/console.log'],
    ['/a..b.txt', '/a..b.txt'],
  ])('%j -> %j', (input, expected) => {
    expect(parseAgentPath(input).path).toBe(expected)
  })

  it('returns the segments', () => {
    expect(parseAgentPath('/a/b/../c/d.txt').segments).toEqual(['a', 'c', 'd.txt'])
    expect(parseAgentPath('/').segments).toEqual([])
  })

  it('accepts a 255-byte name and refuses 256', () => {
    expect(parseAgentPath(`/${'a'.repeat(255)}`).segments[0]).toHaveLength(255)
    expect(() => parseAgentPath(`/${'a'.repeat(256)}`)).toThrow(PathRefusedError)
  })

  it('names the rule and gives guidance in the message', () => {
    try {
      parseAgentPath('/../x')
      expect.fail('should refuse')
    } catch (error) {
      expect(error).toBeInstanceOf(PathRefusedError)
      expect((error as PathRefusedError).rule).toBe('leaves-root')
      expect((error as Error).message).toMatch(/^Path refused \(leaves-root\): .*workspace root/)
    }
  })
})

import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseAgentPath } from '../../../src/main/workspace'
import { PathRefusedError } from '../../../src/main/workspace/errors'
import { rejection, sandboxes } from './sandbox'

// Names that look alike must not become two files, and invisible characters are refused.
const boxes = sandboxes('bureau-lookalike-')
afterAll(() => boxes.cleanup())

describe('names that look alike', () => {
  it('normalises agent paths to NFC', () => {
    expect(parseAgentPath('/e\u0301.txt').path).toBe('/\u00E9.txt')
    expect(parseAgentPath('/Cafe\u0301/Ame\u0301lie.txt').segments).toEqual(['Caf\u00E9', 'Am\u00E9lie.txt'])
    // Hangul jamo compose into one syllable.
    expect(parseAgentPath('/\u1100\u1161.txt').path).toBe('/\uAC00.txt')
  })

  it('/e\u0301.txt and /é.txt are one file', async () => {
    const { workspace } = await boxes.make({ history: false })
    await workspace.writeFile('/e\u0301.txt', 'first')
    const receipt = await workspace.writeFile('/\u00E9.txt', 'second')
    expect(receipt.path).toBe('/\u00E9.txt')
    expect(receipt.created).toBe(false)
    const names = (await workspace.list('/', { glob: '*.txt' })).entries.map((entry) => entry.name)
    expect(names).toEqual(['\u00E9.txt'])
    expect(await workspace.readText('/e\u0301.txt')).toBe('second')
    await workspace.close()
  })

  it('finds a file another program saved in decomposed form (NFD) under its NFC name', async () => {
    const { workspace, root } = await boxes.make({ history: false })
    await writeFile(path.join(root, 'Re\u0301sume\u0301.txt'), 'from macOS')
    expect(await workspace.readText('/R\u00E9sum\u00E9.txt')).toBe('from macOS')
    expect(await workspace.readText('/Re\u0301sume\u0301.txt')).toBe('from macOS')
    await workspace.close()
  })

  it.each([
    ['.bureau\u200D', 'invisible-character', 'U+200D'],
    ['a\u200Bb.txt', 'invisible-character', 'U+200B'],
    ['\uFEFFa.txt', 'invisible-character', 'U+FEFF'],
    ['a\u2062b', 'invisible-character', 'U+2062'],
    ['\u202Etxt.exe', 'bidi-control', 'U+202E'],
    ['a\u2066b', 'bidi-control', 'U+2066'],
    ['a\u200Fb', 'bidi-control', 'U+200F'],
  ])('refuses %j with the rule %s, naming the character', async (name, rule, code) => {
    const { workspace } = await boxes.make({ history: false })
    const error = await rejection(workspace.writeFile(`/${name}`, 'x'))
    expect(error).toBeInstanceOf(PathRefusedError)
    expect(error.rule).toBe(rule)
    expect(error.message).toContain(`(${rule})`)
    expect(error.message).toContain(code)
    expect((await workspace.list('/')).entries).toEqual([])
    await workspace.close()
  })
})

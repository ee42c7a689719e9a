import { _defaultStyleMap } from 'mammoth/lib/options-reader.js'
import { readStyle } from 'mammoth/lib/style-reader.js'
import { describe, expect, it } from 'vitest'
import { readStyleLine } from '../../../../src/main/convert/docx/styleLines'

const bureauLines = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  'comment-reference => sup',
]
const otherAccepted = [
  'p => p',
  'r =>',
  "p.Heading1[style-name='A b'] => h1",
  "p[style-name='a'][style-name='b'].X.Y => div|section > p:fresh",
  'p:ordered-list(12):unordered-list(2) => ol > li:fresh',
  "r[style-name='quote \" and > sign'] => em",
  'p.-_x9 => x-y_z9',
]
/** Forms the fast reader leaves to mammoth (it may accept or refuse them; either way mammoth decides). */
const leftToMammoth = [
  "p[style-name^='Heading'] => h1",
  "p[style-name='a\\'b'] => h1",
  'p.Heading\\1 => h1',
  'p.X => h1.cls',
  "p.X => h1[id='a']",
  "p.X => h1:separator('x')",
  'p.X => !',
  'p.X  => h1',
  'p.X =>  h1',
  'p.X => h1 ',
  'p.X => ul  > li',
  'p.1X => h1',
  'pfoo => h1',
  'table => table',
  'b => strong',
  "br[type='line'] => br",
  "p[style-name='a => b'] => h1",
  'comment-reference.X => sup',
  'p:ordered-list(x) => ol',
  'p:fresh => h1',
  'p.X => 1h',
  '',
]

describe('readStyleLine', () => {
  it.each([..._defaultStyleMap, ...bureauLines, ...otherAccepted])('%s: what mammoth reads', (line) => {
    const fast = readStyleLine(line)
    const mammoth = readStyle(line)
    expect(mammoth.messages).toEqual([])
    expect(fast).toBeDefined()
    expect(fast).toStrictEqual(mammoth.value)
  })

  it.each(leftToMammoth)('%s: left to mammoth', (line) => {
    expect(readStyleLine(line)).toBeUndefined()
  })

  it('keeps the matchers working: a later suffix of a kind wins, names compare without case', () => {
    const rule = readStyleLine("p[style-name='a'][style-name='HEADING 1'] => h1") as {
      from: { matches(element: object): boolean }
    }
    expect(rule.from.matches({ type: 'paragraph', styleName: 'Heading 1' })).toBe(true)
    expect(rule.from.matches({ type: 'paragraph', styleName: 'a' })).toBe(false)
    expect(rule.from.matches({ type: 'run', styleName: 'Heading 1' })).toBe(false)
  })
})

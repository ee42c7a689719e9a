import { describe, expect, it } from 'vitest'
import { inputSchemaOf } from '../../../src/main/mcp/mcpToolset'
import { patternIssues, uncheckedPatterns, withoutPatterns } from '../../../src/main/mcp/schemaPatterns'

// Hostile patterns against inputs that take V8's backtracking RegExp minutes; each check here ends in 5 s.
describe('MCP schema patterns, checked by RE2', () => {
  it('refuses a string that misses a catastrophic pattern at once, nested in objects, arrays and $ref', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { $ref: '#/$defs/word' } },
        inner: { type: 'object', properties: { s: { type: 'string', pattern: '^(a|aa)+$' } } },
      },
      $defs: { word: { type: 'string', pattern: '(a+)+$' } },
    }
    const input = inputSchemaOf(schema as never)
    const bad = `${'a'.repeat(5_000)}!`
    const result = input.safeParse({ list: ['aaa', bad], inner: { s: bad } })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['list.1', 'does not match the pattern (a+)+$'],
      ['inner.s', 'does not match the pattern ^(a|aa)+$'],
    ])
    expect(input.safeParse({ list: ['xaa'], inner: { s: 'aaaa' } }).success).toBe(true)
  }, 5_000)

  it('checks patternProperties keys and values, anyOf branches and additionalProperties beside them', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: {
          type: 'object',
          patternProperties: { '^x-': { type: 'string', pattern: '^\\d+$' } },
          additionalProperties: false,
        },
        id: {
          anyOf: [
            { type: 'string', pattern: '^[a-z]+$' },
            { type: 'string', pattern: '^\\d+$' },
          ],
        },
      },
    }
    expect(patternIssues(schema, { tags: { 'x-a': '12' }, id: '42' })).toEqual([])
    expect(
      patternIssues(schema, { tags: { 'x-a': 'no', other: '1' }, id: 'A1' }).map((i) => i.path.join('.')),
    ).toEqual(['tags.x-a', 'tags.other', 'id'])
    // zod gets the schema without them (it would compile a backtracking RegExp); data keywords are kept.
    expect(withoutPatterns({ pattern: 'a', default: { pattern: 'kept' }, patternProperties: {} })).toEqual({
      default: { pattern: 'kept' },
    })
  })

  it('names the patterns RE2 cannot read (backreferences, lookaround), which the server still checks', () => {
    expect(
      uncheckedPatterns({
        properties: { a: { pattern: '(a)\\1' }, b: { pattern: '^(?=x)' }, c: { pattern: 'ok' } },
      }),
    ).toEqual(['(a)\\1', '^(?=x)'])
    const input = inputSchemaOf({
      type: 'object',
      properties: { a: { type: 'string', pattern: '(a)\\1' } },
    } as never)
    expect(input.safeParse({ a: 'anything' }).success).toBe(true)
  })
})

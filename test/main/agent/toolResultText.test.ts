import { describe, expect, it } from 'vitest'
import { MAX_TOOL_RESULT_TOKENS, valueText } from '../../../src/main/agent/loop/toolResultText'
import { estimateTextTokens } from '../../../src/main/llm'

describe('tool results fed back to the model', () => {
  it('a short result passes whole', () => {
    expect(valueText({ ok: 1 })).toBe('{"ok":1}')
  })

  it('a long Latin result is cut at the character limit and says how to ask for less', () => {
    const text = valueText('a'.repeat(40_000))
    expect(text.startsWith('a'.repeat(16_000))).toBe(true)
    expect(text).toContain('[… cut: the result has 40000 characters; ask for less')
  })

  it('a CJK result within the character limit is still held to the token limit', () => {
    const text = valueText('表'.repeat(15_000))
    expect(text).toContain('[… cut: the result has 15000 characters')
    expect(estimateTextTokens(text)).toBeLessThanOrEqual(MAX_TOOL_RESULT_TOKENS + 40)
  })
})

import { describe, expect, it } from 'vitest'
import { adviceFor } from '../../../src/renderer/src/chat/messages/problemAdvice'

describe('adviceFor', () => {
  it('sends a rejected key to the key field', () => {
    expect(
      adviceFor({ code: 'UNAUTHORIZED', message: 'DeepSeek rejected the API key (401).' }).action?.kind,
    ).toBe('reenter-key')
    expect(
      adviceFor({ message: 'OpenAI rejected the API key (401). Enter the key in Settings.' }).action?.kind,
    ).toBe('reenter-key')
  })
  it('sends an unreachable provider to Settings', () => {
    const advice = adviceFor({
      code: 'UNAVAILABLE',
      message: 'Cannot reach Ollama. Is Ollama running at http://127.0.0.1:11434?',
    })
    expect(advice.title).toBe('No model provider reachable')
    expect(advice.action?.kind).toBe('open-settings')
  })
  it('offers no button where none helps', () => {
    expect(adviceFor({ code: 'RATE_LIMITED', message: 'busy' }).action).toBeUndefined()
    expect(
      adviceFor({ code: 'UNAVAILABLE', message: 'Chat is not available in this build yet.' }).action,
    ).toBeUndefined()
  })
  it('a stream cut mid-answer is not "no provider reachable"', () => {
    const advice = adviceFor({
      code: 'UNAVAILABLE',
      message: 'The connection to OpenAI was lost after 12 words of the answer. What arrived is kept.',
    })
    expect(advice.title).toBe('The answer was cut off')
    expect(advice.action).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { classifyFailure } from '../../../src/main/llm/errors/toAppError'
import type { PublicProvider } from '../../../src/main/llm/types'

const openai: PublicProvider = {
  id: 'openai',
  name: 'OpenAI',
  kind: 'openai-compatible',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  apiKeyEnv: 'OPENAI_API_KEY',
  contextWindow: undefined,
  maxOutputTokens: undefined,
  interactionMode: undefined,
  cacheType: 'prefix',
  supportsTools: true,
  supportsVision: true,
  headers: {},
  temperature: undefined,
}

const rejected = (provider: PublicProvider) =>
  classifyFailure({ kind: 'http', status: 401 }, { provider, secrets: [], timeoutMs: 1000 }).error.message

describe('a rejected key names where it came from', () => {
  it('a key from BUREAU_API_KEY names BUREAU_API_KEY, not OPENAI_API_KEY', () => {
    const message = rejected({ ...openai, apiKeyFrom: 'BUREAU_API_KEY' })
    expect(message).toContain('BUREAU_API_KEY')
    expect(message).not.toContain('OPENAI_API_KEY')
    expect(message).toContain('Settings → Model provider')
  })
  it("a key from the provider's own variable names that variable", () => {
    expect(rejected({ ...openai, apiKeyFrom: 'OPENAI_API_KEY' })).toContain(
      'environment variable OPENAI_API_KEY',
    )
  })
  it('a stored key points to the real Settings section', () => {
    const message = rejected(openai)
    expect(message).toContain('Enter the key in Settings → Model provider or set OPENAI_API_KEY')
    expect(message).not.toContain('Settings → Providers')
  })
})

import { describe, expect, it } from 'vitest'
import {
  extractSecrets,
  isSecretName,
  looksLikeSecretKey,
  SecretName,
  secretHint,
  secretLabel,
  withoutSecretLikeKeys,
} from '../../../src/shared/settings'

describe('secret names', () => {
  it('accepts the documented dotted paths and nothing else', () => {
    for (const name of [
      'providers.deepseek.apiKey',
      'providers.lm-studio.apiKey',
      'email.smtpPassword',
      'email.imapPassword',
      'bridge.tokens.my-script',
      'voice.tts.apiKey',
      'voice.stt.apiKey',
    ])
      expect(isSecretName(name), name).toBe(true)
    for (const name of [
      'providers.deepseek.baseUrl',
      'providers.DeepSeek.apiKey',
      'providers..apiKey',
      'email.password',
      'bridge.tokens',
      'apiKey',
      '__proto__.apiKey',
    ])
      expect(isSecretName(name), name).toBe(false)
    expect(SecretName.safeParse('nope').error?.issues[0]?.message).toContain('providers.deepseek.apiKey')
  })

  it('labels secrets for "re-enter ..." notices', () => {
    expect(secretLabel('providers.deepseek.apiKey')).toBe('the API key of provider "deepseek"')
    expect(secretLabel('email.smtpPassword')).toBe('the SMTP password')
    expect(secretLabel('bridge.tokens.ci')).toBe('the bridge token "ci"')
  })

  it('recognises secret-looking keys', () => {
    for (const key of ['apiKey', 'api_key', 'password', 'smtpPassword', 'token', 'secret', 'clientSecret'])
      expect(looksLikeSecretKey(key), key).toBe(true)
    for (const key of ['model', 'maxOutputTokens', 'budgetChars', 'theme'])
      expect(looksLikeSecretKey(key), key).toBe(false)
  })

  it('takes secrets out of a settings object and strips secret-like keys', () => {
    const { data, secrets } = extractSecrets({
      providers: { openai: { apiKey: 'sk-1', model: 'gpt' } },
      email: { smtpPassword: 'pw', host: 'smtp.example' },
    })
    expect(data).toEqual({ providers: { openai: { model: 'gpt' } }, email: { host: 'smtp.example' } })
    expect(Object.fromEntries(secrets)).toEqual({
      'providers.openai.apiKey': 'sk-1',
      'email.smtpPassword': 'pw',
    })
    expect(withoutSecretLikeKeys({ a: { token: 'x', b: 1 }, password: 'y' })).toEqual({ a: { b: 1 } })
  })
})

describe('secret hints', () => {
  it('shows a vendor prefix and the last four characters of a long key', () => {
    expect(secretHint('sk-abcdefghijklmnopqrstuvwxyza1b2')).toBe('sk-…a1b2')
    expect(secretHint('sk-ant-api03-abcdefghijklmnopqrstuvwxyz-XYZW')).toBe('sk-ant-…XYZW')
    expect(secretHint('AIzaSyA-abcdefghijklmnopqrstu1234')).toBe('AIza…1234')
    expect(secretHint('0123456789abcdef0123')).toBe('…0123')
  })

  it('says nothing about short secrets such as passwords', () => {
    expect(secretHint('hunter2')).toBeUndefined()
    expect(secretHint('correct-horse-b')).toBeUndefined()
  })
})

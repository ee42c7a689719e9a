import { describe, expect, it } from 'vitest'
import { refusalOf } from '../../../src/main/browser/guard/pausedRequest'
import { createRequestVerdicts } from '../../../src/main/browser/guard/requestVerdicts'
import type { UrlGuard } from '../../../src/main/tools'
import { AppError } from '../../../src/shared/errors'

/** A guard that allows example.com only and counts its checks. */
function countingGuard() {
  const checked: string[] = []
  const guard: UrlGuard = {
    async check(input) {
      checked.push(String(input))
      const url = new URL(String(input))
      if (url.hostname !== 'example.com') throw new AppError('FORBIDDEN', `Refused ${url.href}: not allowed`)
      return url
    },
    fetch: () => Promise.reject(new Error('unused')),
    resolve: () => Promise.reject(new Error('unused')),
  }
  return { guard, checked }
}

describe('request verdicts', () => {
  it('checks an allowed origin once while the verdict is fresh, and again after it expires', async () => {
    const { guard, checked } = countingGuard()
    let now = 0
    const verdicts = createRequestVerdicts(guard, () => now)
    expect(await verdicts.refusal('https://example.com/a')).toBeNull()
    expect(await verdicts.refusal('https://example.com/b.png')).toBeNull()
    expect(checked).toEqual(['https://example.com/a'])
    now = 31_000
    expect(await verdicts.refusal('https://example.com/c')).toBeNull()
    expect(checked).toHaveLength(2)
    // fresh skips the remembered verdict
    expect(await verdicts.refusal('https://example.com/d', { fresh: true })).toBeNull()
    expect(checked).toHaveLength(3)
  })

  it('lets a burst of requests to a new origin wait for one check', async () => {
    const { guard, checked } = countingGuard()
    const verdicts = createRequestVerdicts(guard)
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((path) => verdicts.refusal(`https://example.com/${path}`)),
    )
    expect(answers).toEqual([null, null, null, null])
    expect(checked).toEqual(['https://example.com/a'])
  })

  it('never remembers a refusal, and names the URL that was asked for', async () => {
    const { guard, checked } = countingGuard()
    const verdicts = createRequestVerdicts(guard)
    const [first, second] = await Promise.all([
      verdicts.refusal('http://127.0.0.1:9/one'),
      verdicts.refusal('http://127.0.0.1:9/two'),
    ])
    expect(first).toBe('Refused http://127.0.0.1:9/one: not allowed')
    expect(second).toBe('Refused http://127.0.0.1:9/two: not allowed')
    expect(await verdicts.refusal('http://127.0.0.1:9/one')).not.toBeNull()
    expect(checked.filter((u) => u.endsWith('/one'))).toHaveLength(2)
  })
})

describe('paused request verdicts', () => {
  const { guard } = countingGuard()
  const verdicts = createRequestVerdicts(guard)

  it('lets frames and subresources use data: and blob: content the page already has', async () => {
    expect(await refusalOf(verdicts, 'data:image/png;base64,AAAA', false)).toBeNull()
    expect(await refusalOf(verdicts, 'blob:https://example.com/1234', false)).toBeNull()
  })

  it('checks everything else, and a tab navigation to data: too', async () => {
    expect(await refusalOf(verdicts, 'data:text/html,hi', true)).toContain('Refused')
    expect(await refusalOf(verdicts, 'http://10.0.0.1/x', false)).toContain('Refused http://10.0.0.1/x')
    expect(await refusalOf(verdicts, 'https://example.com/', true)).toBeNull()
  })

  it('refuses a request whose check failed unexpectedly', async () => {
    const broken = createRequestVerdicts({
      check: () => Promise.reject(new Error('resolver exploded')),
      fetch: () => Promise.reject(new Error('unused')),
      resolve: () => Promise.reject(new Error('unused')),
    })
    expect(await refusalOf(broken, 'https://example.com/', false)).toContain('resolver exploded')
  })
})

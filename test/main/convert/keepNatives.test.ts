import { describe, expect, it } from 'vitest'
import { importKeepingNatives } from '../../../src/main/convert/pdf/keepNatives'

describe('importKeepingNatives', () => {
  it('puts back the native push and JSON that an import replaced, and keeps what it only added', async () => {
    const push = Array.prototype.push
    const parse = JSON.parse
    const added = Symbol('added')
    const result = await importKeepingNatives(async () => {
      Object.defineProperty(Array.prototype, 'push', { value: () => 0, writable: true, configurable: true })
      JSON.parse = () => 'polyfilled'
      ;(Array as unknown as Record<symbol, unknown>)[added] = true
      return 'module'
    })
    expect(result).toBe('module')
    expect(Array.prototype.push).toBe(push)
    expect(JSON.parse).toBe(parse)
    expect((Array as unknown as Record<symbol, unknown>)[added]).toBe(true)
    delete (Array as unknown as Record<symbol, unknown>)[added]
  })

  it('the real pdf.js import leaves push and JSON native', async () => {
    const push = Array.prototype.push
    const stringify = JSON.stringify
    await importKeepingNatives(() => import('pdfjs-dist/legacy/build/pdf.worker.mjs'))
    expect(Array.prototype.push).toBe(push)
    expect(JSON.stringify).toBe(stringify)
  })
})

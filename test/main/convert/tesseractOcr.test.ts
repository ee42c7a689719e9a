import { afterAll, describe, expect, it } from 'vitest'
import { createTesseractOcr } from '../../../src/main/convert/ocr/tesseractOcr'
import { core } from './corpus'

// The real offline OCR engine (tesseract.js, English data shipped with the app): one worker shared by
// the conversions that run at once. A job's end or cancel must not leave another job waiting forever.
const image = core.file('scan.jpg')
const ocr = createTesseractOcr()
afterAll(() => ocr.dispose())

describe('offline OCR shared by several conversions', () => {
  it("a finished job's signal firing later (the worker pool aborts it at the end) does not stop the next job", async () => {
    const first = new AbortController()
    const text = await ocr.recognize(image, { signal: first.signal })
    expect(text.trim().length).toBeGreaterThan(20)
    const second = ocr.recognize(image, { signal: new AbortController().signal })
    first.abort(new Error('the first conversion ended'))
    expect(await second).toBe(text)
  }, 120_000)

  it('cancelling one of two jobs at once fails that one; the other still gets its text', async () => {
    const reference = await ocr.recognize(image, { signal: new AbortController().signal })
    const cancelled = new AbortController()
    const doomed = ocr.recognize(image, { signal: cancelled.signal })
    const kept = ocr.recognize(image, { signal: new AbortController().signal })
    setTimeout(() => cancelled.abort(new Error('cancelled by the user')), 50)
    await expect(doomed).rejects.toThrow('cancelled by the user')
    expect(await kept).toBe(reference)
  }, 120_000)
})

import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { importWithoutCanvas } from '../../../src/main/convert/pdf/withoutCanvas'
import { text, writePdf } from './pdfWriter'

const require = createRequire(import.meta.url)
const canvasPath = require.resolve('@napi-rs/canvas')
const globals = globalThis as Record<string, unknown>

describe('pdf.js without the native canvas', () => {
  it('converts without loading @napi-rs/canvas and leaves no stand-in behind', async () => {
    const converter = createConverter({ ocr: false })
    const pdf = writePdf([{ content: [text(72, 700, 'Text only, nothing rendered')] }])
    const result = await converter.convert({ name: 'plain.pdf', bytes: pdf })
    expect(result.markdown).toContain('Text only, nothing rendered')
    expect(require.cache[canvasPath]).toBeUndefined()
    expect(globals.DOMMatrix).toBeUndefined()
    expect(globals.Path2D).toBeUndefined()
    expect(globals.ImageData).toBeUndefined()
  })

  it('offers the stand-ins only while the import runs', async () => {
    const seen = await importWithoutCanvas(async () => ({
      cached: require.cache[canvasPath]?.exports as Record<string, unknown> | undefined,
      matrix: typeof globals.DOMMatrix,
    }))
    expect(Object.keys(seen.cached ?? {}).sort()).toEqual(['DOMMatrix', 'ImageData', 'Path2D'])
    expect(seen.matrix).toBe('undefined')
    expect(require.cache[canvasPath]).toBeUndefined()
  })

  it('stays out of the way when a real DOMMatrix is already there', async () => {
    class RealMatrix {}
    globals.DOMMatrix = RealMatrix
    try {
      const cached = await importWithoutCanvas(async () => require.cache[canvasPath])
      expect(cached).toBeUndefined()
      expect(globals.DOMMatrix).toBe(RealMatrix)
    } finally {
      delete globals.DOMMatrix
    }
  })
})

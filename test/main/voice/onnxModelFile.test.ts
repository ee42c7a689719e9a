import { describe, expect, it } from 'vitest'
import { tinyPiperModel } from '../../../scripts/tinyPiperVoice'
import { onnxMetadata, withOnnxMetadata } from '../../../src/main/voice/piper/onnxModelFile'

describe('ONNX model metadata', () => {
  it('adds entries to a model without decoding it, and reads them back', () => {
    const model = tinyPiperModel()
    expect(onnxMetadata(model, 'tiny.onnx').size).toBe(0)
    const added = withOnnxMetadata(model, { comment: 'piper', sample_rate: '22050' }, 'tiny.onnx')
    // The original bytes are kept as they were, the entries follow them.
    expect(added.subarray(0, model.length).equals(model)).toBe(true)
    expect(Object.fromEntries(onnxMetadata(added, 'tiny.onnx'))).toEqual({
      comment: 'piper',
      sample_rate: '22050',
    })
  })

  it('keeps a key the model already has and adds only the new ones', () => {
    const once = withOnnxMetadata(tinyPiperModel(), { comment: 'coqui' }, 'tiny.onnx')
    const twice = withOnnxMetadata(once, { comment: 'piper', language: 'English' }, 'tiny.onnx')
    expect(Object.fromEntries(onnxMetadata(twice, 'tiny.onnx'))).toEqual({
      comment: 'coqui',
      language: 'English',
    })
  })

  it('names a file that is not an ONNX model', () => {
    expect(() => onnxMetadata(Buffer.from('{"not": "onnx"}'), 'voice.onnx')).toThrow(
      /voice.onnx is not an ONNX model/,
    )
    const cut = tinyPiperModel().subarray(0, 60)
    expect(() => withOnnxMetadata(cut, { a: 'b' }, 'cut.onnx')).toThrow(
      /cut.onnx is not an ONNX model .*runs past the end/,
    )
    expect(() => onnxMetadata(Buffer.from([0x08, 0x07]), 'small.onnx')).toThrow(
      /small.onnx is not an ONNX model: it has no graph/,
    )
  })
})

import { describe, expect, it } from 'vitest'
import { describeFailure } from '../../../src/main/convert/convertCore'
import { ConvertError, FormatProblem } from '../../../src/main/convert/errors'
import { DeadlineExceeded } from '../../../src/main/convert/limits'

describe('conversion failures keep the error they explain', () => {
  it('describes a library error, a deadline and a cancel with the original as cause', () => {
    const library = new Error('Corrupted zip: missing 12 bytes')
    const damaged = describeFailure('docx', library)
    expect(damaged.failure).toBe('damaged')
    expect(damaged.cause).toBe(library)

    const deadline = new DeadlineExceeded(2000)
    const late = describeFailure('pdf', deadline)
    expect(late.message).toBe('conversion took longer than 2 s and was stopped')
    expect(late.cause).toBe(deadline)

    const abort = Object.assign(new Error('stop'), { name: 'AbortError' })
    expect(describeFailure('pdf', abort).cause).toBe(abort)
  })

  it('hands a FormatProblem on unchanged and lets a ConvertError name it as cause', () => {
    const problem = new FormatProblem('encrypted', 'the file is protected by a password')
    expect(describeFailure('xlsx', problem)).toBe(problem)
    const error = new ConvertError('/home/someone/book.xlsx', problem.failure, problem.message, {
      cause: problem,
    })
    expect(error.message).toBe('Cannot convert "book.xlsx": the file is protected by a password')
    expect(error.code).toBe('UNSUPPORTED')
    expect(error.cause).toBe(problem)
    expect(error.toPayload()).toEqual({ code: 'UNSUPPORTED', message: error.message })
  })
})

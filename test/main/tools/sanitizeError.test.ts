import { describe, expect, it } from 'vitest'
import { errorMessage, redactHostPaths } from '../../../src/main/tools/sanitizeError'
import { AppError } from '../../../src/shared/errors'

describe('error text for models', () => {
  it.each([
    [
      "ENOENT: no such file or directory, open '/home/u/Bureau/a.txt'",
      "ENOENT: no such file or directory, open '<path>'",
    ],
    ['EACCES: permission denied, mkdir /var/lib/x', 'EACCES: permission denied, mkdir <path>'],
    ['Cannot find module C:\\Users\\u\\AppData\\x.js', 'Cannot find module <path>'],
    ['share \\\\server\\share\\doc.docx is offline', 'share <path> is offline'],
    ['bad url file:///etc/passwd', 'bad url <path>'],
    ['divide by zero', 'divide by zero'],
  ])('%s', (input, output) => {
    expect(redactHostPaths(input)).toBe(output)
  })

  it('keeps the first line only, caps the length and shows workspace paths as agent paths', () => {
    expect(errorMessage(new Error('first line\n    at foo (/src/x.ts:1:1)'))).toBe('first line')
    expect(errorMessage(new Error('x'.repeat(1_000))).length).toBe(400)
    expect(errorMessage(new Error("EISDIR: open '/data/ws/reports/q3'"), '/data/ws')).toBe(
      "EISDIR: open '/reports/q3'",
    )
    expect(errorMessage(new Error("EISDIR: open '/data/ws'"), '/data/ws')).toBe("EISDIR: open '/'")
    expect(errorMessage(undefined)).toBe('unknown error')
  })

  it('AppError messages pass unchanged (they are written for models)', () => {
    expect(errorMessage(new AppError('NOT_FOUND', 'File /notes/a.txt not found'))).toBe(
      'File /notes/a.txt not found',
    )
  })
})

import { describe, expect, it } from 'vitest'
import { convertFiles } from '../../../src/main/cli/convert/prestart'

// What `bureau convert` starts workers for before its options are parsed: the file names only.
describe('the files of a convert command line', () => {
  it('leaves out options and the values of the options that take one', () => {
    expect(
      convertFiles([
        '--vision',
        'off',
        'a.pdf',
        '--max-chars',
        '500',
        '--json',
        '--data-dir',
        'd.zip',
        'b.docx',
      ]),
    ).toEqual(['a.pdf', 'b.docx'])
    expect(convertFiles(['--keep-data-uris', '--no-cache', 'a.pdf'])).toEqual(['a.pdf'])
    expect(convertFiles(['--vision=off', 'a.pdf'])).toEqual(['a.pdf'])
  })

  it('takes everything after -- as files', () => {
    expect(convertFiles(['a.pdf', '--', '-odd.docx', '--json'])).toEqual(['a.pdf', '-odd.docx', '--json'])
  })
})

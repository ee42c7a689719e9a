import { describe, expect, it } from 'vitest'
import { createConverter } from '../../../../src/main/convert'
import { reviewedContract } from '../../documents/reviewFixture'

describe('Word review marks in the Markdown', () => {
  const converter = createConverter({ ocr: false })
  const convert = (acceptedText: boolean) =>
    converter.convert({ name: 'contract.docx', bytes: reviewedContract() }, { noCache: true, acceptedText })

  it('shows tracked changes with author and date, comment anchors and threads', async () => {
    const { markdown } = await convert(false)
    expect(markdown).toContain(
      'The **Supplier** shall deliver within {--30--}[#1 Alice 2024-05-02]{++45++}[#2 Alice 2024-05-01] days.',
    )
    expect(markdown).toContain(
      'Payment is due {==on receipt==}[c7] of the {++correct ++}[#3 Bob 2024-05-01]invoice.',
    )
    expect(markdown).toContain('*Customer*.{-- Really.--}[#4 Bob 2024-05-02]')
    expect(markdown).toMatch(
      /## Comments\n\n- \[c7\] Carol 2024-05-03: Too short\?\n {2}- \[c8\] Dan 2024-05-03: No, standard\./,
    )
    expect(markdown).not.toContain('\u27e6')
  })

  it('gives the accepted text only when asked', async () => {
    const { markdown } = await convert(true)
    expect(markdown).toContain('The **Supplier** shall deliver within 45 days.')
    expect(markdown).toContain('Payment is due on receipt of the correct invoice.')
    expect(markdown).not.toMatch(/\{\+\+|\{--|\{==|Comments|Really|\b30\b/)
  })
})

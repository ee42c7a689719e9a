import { describe, expect, it } from 'vitest'
import { mailError } from '../../../src/main/email/mailErrors'

describe('an unknown mail host', () => {
  it('is said the same way for SMTP (nodemailer EDNS) as for IMAP (ENOTFOUND)', () => {
    const at = { host: 'smtp.example.com', port: 587, tls: false }
    const smtp = Object.assign(new Error('getaddrinfo ENOTFOUND smtp.example.com'), { code: 'EDNS' })
    const imap = Object.assign(new Error('getaddrinfo ENOTFOUND smtp.example.com'), { code: 'ENOTFOUND' })
    const said = mailError(smtp, 'SMTP', at, { user: 'alice' }).message
    expect(said).toBe('Cannot connect to the SMTP server smtp.example.com:587: the host name is not known.')
    expect(said).not.toContain('getaddrinfo')
    expect(mailError(imap, 'IMAP', at, { user: 'alice' }).message).toContain('the host name is not known')
  })
})
